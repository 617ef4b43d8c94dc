// PostingsFixture: one field's terms written by PostingsWriter as segment _0
// of a scratch directory and mapped back, for tests of PostingsCursor against
// a plain model of the postings (ModelPosting). Test support only.
#ifndef INVERT_TESTS_CODEC_POSTINGS_FIXTURE_H_
#define INVERT_TESTS_CODEC_POSTINGS_FIXTURE_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codec/impacts.h"
#include "codec/postings_format.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"
#include "store/codec_util.h"
#include "store/index_input.h"

namespace invert::testing {

// One document of a term: what a reader must give back.
struct ModelPosting {
  uint32_t doc = 0;
  uint32_t freq = 1;                // 1 when the field has no freqs
  uint8_t norm = 1;                 // the document's norm byte, for the impacts
  std::vector<uint32_t> positions;  // freq of them when the field has positions
};
using ModelTerm = std::vector<ModelPosting>;

// The term's name in the dictionary: byte order = index order.
inline std::string ModelTermName(size_t t) {
  char name[32];
  std::snprintf(name, sizeof(name), "t%06zu", t);
  return name;
}

// The Pareto frontier of `pairs` by definition (codec/impacts.h): a pair is
// kept unless another has freq >= and norm <= (and differs); freq ascending.
inline std::vector<Impact> BruteFrontier(const std::vector<Impact>& pairs) {
  std::vector<Impact> out;
  for (const Impact& a : pairs) {
    bool dominated = false;
    for (const Impact& b : pairs) {
      if (b.freq >= a.freq && b.norm <= a.norm && !(b == a)) dominated = true;
    }
    if (!dominated && std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  }
  std::sort(out.begin(), out.end(), [](Impact x, Impact y) { return x.freq < y.freq; });
  return out;
}

// The frontier of postings [begin, end) of a term.
inline std::vector<Impact> ModelFrontier(const ModelTerm& postings, size_t begin, size_t end) {
  ImpactSet set;  // same answer as BruteFrontier (ImpactsTest), linear time
  for (size_t i = begin; i < end; ++i) set.Add(postings[i].freq, postings[i].norm);
  std::vector<Impact> out;
  set.Take(&out);
  return out;
}

class PostingsFixture {
 public:
  // Writes `terms` (each non-empty, docs increasing) into field 0 of type
  // `type`, named ModelTermName(0), (1), ...; with `abandoned`, a term with
  // no documents is started and abandoned before each one. Then maps the
  // files and reads the terms' stats back from the dictionary. Use with
  // ASSERT_NO_FATAL_FAILURE.
  void Write(const FieldType& type, const std::vector<ModelTerm>& terms, bool abandoned = false) {
    type_ = type;
    dir_ = scratch_.Open();
    ASSERT_NE(dir_, nullptr);
    absl::StatusOr<std::unique_ptr<PostingsWriter>> writer =
        PostingsWriter::Create(dir_.get(), "_0", SegmentId{});
    ASSERT_TRUE(writer.ok()) << writer.status();
    PostingsWriter& w = **writer;
    w.StartField(FieldInfo{"f", 0, type});
    const bool positions = HasPositions(type.index_options);
    for (size_t t = 0; t < terms.size(); ++t) {
      if (abandoned) w.StartTerm();
      w.StartTerm();
      for (const ModelPosting& p : terms[t]) {
        w.AddDoc(p.doc, p.freq, p.norm);
        if (positions) {
          ASSERT_EQ(p.positions.size(), p.freq);
          for (uint32_t position : p.positions) w.AddPosition(position, 0, 0, "");
        }
      }
      ASSERT_TRUE(w.FinishTerm(ModelTermName(t)).ok());
    }
    ASSERT_TRUE(w.FinishField(1).ok());
    ASSERT_TRUE(w.Finish().ok());
    absl::StatusOr<std::unique_ptr<TermsReader>> reader =
        TermsReader::Open(dir_.get(), "_0", SegmentId{});
    ASSERT_TRUE(reader.ok()) << reader.status();
    stats_.clear();
    TermDictCursor cursor = (*reader)->Field(0)->NewCursor();
    for (;;) {
      absl::StatusOr<bool> next = cursor.Next();
      ASSERT_TRUE(next.ok()) << next.status();
      if (!*next) break;
      stats_.push_back(cursor.stats());
    }
    ASSERT_EQ(stats_.size(), terms.size());
    for (const char* ext : {"doc", "pos"}) {
      absl::StatusOr<IndexInput> in = OpenInput(dir_.get(), std::string("_0.") + ext);
      ASSERT_TRUE(in.ok()) << in.status();
      (ext[0] == 'd' ? doc_in_ : pos_in_).emplace(*std::move(in));
    }
  }

  // The files without their footers, as SegmentReader hands them out.
  std::span<const uint8_t> doc_file() const {
    return doc_in_->bytes().first(doc_in_->length() - kFooterLength);
  }
  std::span<const uint8_t> pos_file() const {
    return pos_in_->bytes().first(pos_in_->length() - kFooterLength);
  }
  const TermStats& stats(size_t t) const { return stats_[t]; }
  PostingsCursor Cursor(size_t t, uint32_t doc_version = kDocFormatVersion) const {
    return PostingsCursor(doc_file(), pos_file(), stats_[t], type_, doc_version);
  }
  Directory* dir() const { return dir_.get(); }

 private:
  ScratchDir scratch_;
  std::unique_ptr<FSDirectory> dir_;
  FieldType type_;
  std::optional<IndexInput> doc_in_;
  std::optional<IndexInput> pos_in_;
  std::vector<TermStats> stats_;
};

}  // namespace invert::testing

#endif  // INVERT_TESTS_CODEC_POSTINGS_FIXTURE_H_
