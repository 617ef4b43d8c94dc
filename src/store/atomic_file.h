// Atomic file replacement: the last step of a commit. WriteFileAtomically
// writes the new contents under a temporary name, makes them durable, renames
// them over the old file and makes the rename durable:
//
//   1. delete a stale "<name>.tmp" left by a crash (if any)
//   2. CreateOutput("<name>.tmp"), write, Close
//   3. Sync({"<name>.tmp"})
//   4. Rename("<name>.tmp", "<name>")        the commit point
//   5. SyncMetaData()
//
// Guarantees: readers see either the complete old file or the complete new
// one. If any of steps 1-4 fails, the temporary file is removed (best
// effort; RemoveTempFiles finishes the job) and the old file is untouched.
// If step 5 fails, the rename has already happened: the complete new file is
// in place but not known to be durable, and the error says so.
//
// Only one writer may commit a given name at a time (the index writer holds
// the directory).
//
// Thread safety: as the Directory's.
#ifndef INVERT_STORE_ATOMIC_FILE_H_
#define INVERT_STORE_ATOMIC_FILE_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "invert/directory.h"
#include "store/index_output.h"

namespace invert {

// Suffix of temporary files; a name ending in it is never a committed file.
inline constexpr std::string_view kTempFileSuffix = ".tmp";

// Replaces `name` with `bytes` as described above.
absl::Status WriteFileAtomically(Directory& dir, std::string_view name,
                                 std::span<const uint8_t> bytes);

// The same, with the contents written by `write` (which may add a codec
// header and footer); an error it returns aborts the commit.
absl::Status WriteFileAtomically(Directory& dir, std::string_view name,
                                 absl::FunctionRef<absl::Status(IndexOutput&)> write);

// Deletes every file whose name ends in kTempFileSuffix (the cleanup pass
// after a failed or crashed commit). Tries them all; returns the first error.
absl::Status RemoveTempFiles(Directory& dir);

}  // namespace invert

#endif  // INVERT_STORE_ATOMIC_FILE_H_
