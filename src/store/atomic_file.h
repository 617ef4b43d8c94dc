// Atomic file replacement: the last step of a commit. WriteFileAtomically
// writes the new contents under a temporary name, makes them durable, renames
// them over the old file and makes the rename durable:
//
//   1. delete a stale "pending_<name>" left by a crash (if any)
//   2. CreateOutput(dir, "pending_<name>"), write, Close
//   3. Sync({"pending_<name>"})
//   4. Rename("pending_<name>", "<name>")    the commit point
//   5. SyncMetaData()
//
// Guarantees: readers see either the complete old file or the complete new
// one. If any of steps 1-4 fails, the temporary file is removed (best
// effort; RemoveTempFile finishes the job) and the old file is untouched.
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
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "invert/directory.h"
#include "store/index_output.h"

namespace invert {

// Prefix of temporary files; a name starting with it is never a committed
// file. Only "pending_" + a name given to WriteFileAtomically is ever
// created or deleted, so other files starting with "pending_" are safe.
inline constexpr std::string_view kTempFilePrefix = "pending_";

// The temporary name of `name`: kTempFilePrefix + name.
std::string TempFileName(std::string_view name);

// Replaces `name` with `bytes` as described above.
absl::Status WriteFileAtomically(Directory& dir, std::string_view name,
                                 std::span<const uint8_t> bytes);

// The same, with the contents written by `write` (which may add a codec
// header and footer); an error it returns aborts the commit.
absl::Status WriteFileAtomically(Directory& dir, std::string_view name,
                                 absl::FunctionRef<absl::Status(IndexOutput&)> write);

// Deletes TempFileName(name) if it exists (the cleanup after a failed or
// crashed commit of `name`). NotFound counts as success.
absl::Status RemoveTempFile(Directory& dir, std::string_view name);

}  // namespace invert

#endif  // INVERT_STORE_ATOMIC_FILE_H_
