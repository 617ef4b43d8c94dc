// The files of a segment: their extensions, codec names and format versions.
// A segment named "_N" consists of:
//   _N.si   segment info: doc count, id, every other file with its length
//           and checksum                                (segment_info_format.h)
//   _N.fnm  field infos                                  (field_infos_format.h)
//   _N.tim  term dictionaries, one per inverted field    (postings_format.h)
//   _N.doc  doc ids and freqs in blocks of 128 with skip headers
//   _N.pos  positions, payloads and offsets in blocks of 128
//   _N.nvd  norms                                        (norms_format.h)
//   _N.fdt/_N.fdx  stored fields                         (stored_fields_format.h)
//   _N.tvd/_N.tvx  term vectors                          (term_vectors_format.h)
// and, once documents of it are deleted, one live-docs file per deletion
// generation G (>= 1, base 36 like N), written after the segment:
//   _N_G.liv  which documents are not deleted            (live_docs_format.h)
// Every file starts with the store's header (codec name, version, segment id)
// and ends with its footer (XXH64); docs/format.md specifies every byte.
// Do not change the names or versions: they are part of the persistent format.
#ifndef INVERT_CODEC_SEGMENT_FILES_H_
#define INVERT_CODEC_SEGMENT_FILES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace invert {

inline constexpr std::string_view kSegmentInfoCodec = "InvertSegmentInfo";
inline constexpr std::string_view kFieldInfosCodec = "InvertFieldInfos";
inline constexpr std::string_view kTermsCodec = "InvertTerms";
inline constexpr std::string_view kDocCodec = "InvertPostingsDoc";
inline constexpr std::string_view kPosCodec = "InvertPostingsPos";
inline constexpr std::string_view kNormsCodec = "InvertNorms";
inline constexpr uint32_t kSegmentFormatVersion = 1;

inline std::string SegmentFileName(std::string_view segment, std::string_view extension) {
  std::string name(segment);
  name += '.';
  name += extension;
  return name;
}

// Every extension a file a flush writes may have (not "liv", whose names
// carry a generation too).
inline constexpr std::string_view kSegmentExtensions[] = {"si",  "fnm", "tim", "doc", "pos",
                                                          "nvd", "fdt", "fdx", "tvd", "tvx"};

// "_" + the segment number in lower-case base 36 without leading zeros.
std::string SegmentName(uint64_t number);

// A file name that fits the segment-file scheme exactly: SegmentName(n) +
// "." + one of kSegmentExtensions, or a live-docs file SegmentName(n) + "_"
// + G + ".liv" with G >= 1 in lower-case base 36 without leading zeros (at
// most 12 digits, like n). Anything else is nullopt.
struct SegmentFileNameParts {
  std::string_view segment;    // "_3"
  uint64_t number = 0;         // 3
  std::string_view extension;  // "doc", ..., "liv"
  uint64_t del_gen = 0;        // G of a .liv file; 0 for every other file
};
std::optional<SegmentFileNameParts> ParseSegmentFileName(std::string_view file);

}  // namespace invert

#endif  // INVERT_CODEC_SEGMENT_FILES_H_
