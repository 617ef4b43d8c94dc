// Pins the bytes of docs/format.md's "A term with a full block" example: one
// term in 130 documents written by PostingsWriter, so that the spec's
// annotated skip header, FOR blocks and tails stay what the code writes.
#include <cstdint>
#include <string>
#include <string_view>

#include "codec/postings_format.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"

namespace invert {
namespace {

std::string Hex(std::span<const uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    if (!out.empty()) out.push_back(' ');
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

// Every byte of `file`, as hex.
std::string FileHex(Directory* dir, std::string_view file) {
  absl::StatusOr<IndexInput> in = OpenInput(dir, file);
  EXPECT_TRUE(in.ok()) << in.status();
  return in.ok() ? Hex(in->bytes()) : std::string();
}

TEST(PostingsFormatTest, FullBlockGoldenBytes) {
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  SegmentId id;
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(0xa0 + i);
  absl::StatusOr<std::unique_ptr<PostingsWriter>> writer =
      PostingsWriter::Create(dir.get(), "_0", id);
  ASSERT_TRUE(writer.ok()) << writer.status();
  (*writer)->StartField(FieldInfo{"body", 0, FieldType::Text()});
  (*writer)->StartTerm();
  // Docs 0, 2, ..., 258 at position 1; doc 10 also at position 4. Norms 3,
  // but doc 10's 7 and doc 20's 2: the block's impacts are (1, 2), (2, 7).
  for (uint32_t d = 0; d < 130; ++d) {
    const uint32_t freq = d == 5 ? 2 : 1;
    (*writer)->AddDoc(2 * d, freq, d == 5 ? 7 : d == 10 ? 2 : 3);
    for (uint32_t p = 0; p < freq; ++p) (*writer)->AddPosition(1 + 3 * p, 0, 0, "");
  }
  ASSERT_TRUE((*writer)->FinishTerm("x").ok());
  ASSERT_TRUE((*writer)->FinishField(130).ok());
  ASSERT_TRUE((*writer)->Finish().ok());

  const std::string id_hex = " a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 aa ab ac ad ae af";
  const std::string header = " 01 00 00 00" + id_hex;
  EXPECT_EQ(FileHex(dir.get(), "_0.doc"),
            "49 4e 56 48 11 49 6e 76 65 72 74 50 6f 73 74 69 6e 67 73 44 6f 63 04 00 00 00" +
                id_hex +
                " fe 01 33 81 01 21 04 01 02 01 05"
                " 02 a8 aa aa aa aa aa aa aa aa aa aa aa aa aa aa"
                " aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa"
                " 81 01 00 00 00 00 02 00 00 00 00 00 00 00 00 00 00 00"
                " 05 05"
                " 49 4e 56 46 01 00 00 00 79 a1 17 5a 48 08 01 47");
  EXPECT_EQ(FileHex(dir.get(), "_0.pos"),
            "49 4e 56 48 11 49 6e 76 65 72 74 50 6f 73 74 69 6e 67 73 50 6f 73" + header +
                " 02 55 55 55 55 55 55 55 55 5d 55 55 55 55 55 55"
                " 55 55 55 55 55 55 55 55 55 55 55 55 55 55 55 55 55"
                " 01 01 01"
                " 49 4e 56 46 01 00 00 00 66 f7 cb b3 16 19 eb 9c");
}

}  // namespace
}  // namespace invert
