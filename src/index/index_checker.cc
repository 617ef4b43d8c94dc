// CheckIndex (include/invert/check_index.h): checksums plus every structural
// invariant, and each segment's live docs against the commit.
#include <algorithm>
#include <array>
#include <optional>
#include <span>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "codec/impacts.h"
#include "codec/live_docs_format.h"
#include "codec/segment_files.h"
#include "index/commit_reader.h"
#include "index/index_file_deleter.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "invert/check_index.h"
#include "util/absl_compat.h"
#include "util/radix_sort.h"

namespace invert {

namespace {

constexpr size_t kMaxProblems = 50;

class Checker {
 public:
  explicit Checker(CheckReport* report) : report_(report) {}

  void Problem(std::string what) {
    report_->ok = false;
    if (report_->problems.size() < kMaxProblems) report_->problems.push_back(std::move(what));
  }

  void CheckSegment(const SegmentReader& seg) {
    const std::string& name = seg.info().name;
    if (absl::Status s = seg.CheckIntegrity(); !s.ok()) {
      Problem(absl::StrCat(name, ": ", s.message()));
      return;
    }
    for (const SegmentFile& f : seg.info().files) {
      report_->index_bytes += f.length;
      if (f.name.ends_with(".doc")) report_->doc_file_bytes += f.length;
      if (f.name.ends_with(".pos")) report_->pos_file_bytes += f.length;
    }
    const uint32_t docs = seg.doc_count();
    // docs_with_field[field][doc]
    std::vector<std::vector<bool>> has_field(seg.fields().size());
    for (const FieldInfo& field : seg.fields()) {
      if (field.type.indexed()) CheckField(seg, field, &has_field[field.number]);
    }
    for (const FieldInfo& field : seg.fields()) {
      if (!field.type.has_norms()) continue;
      if (!seg.HasNorms(field.number)) {
        Problem(absl::StrCat(name, ": field ", field.name, " has no norms"));
        continue;
      }
      for (uint32_t doc = 0; doc < docs; ++doc) {
        const bool present = !has_field[field.number].empty() && has_field[field.number][doc];
        if (present && seg.Norm(field.number, doc) == 0) {
          Problem(absl::StrCat(name, ": doc ", doc, " has terms in ", field.name, " but norm 0"));
          break;
        }
      }
    }
    for (uint32_t doc = 0; doc < docs; ++doc) {
      absl::StatusOr<std::vector<StoredField>> stored = seg.stored_fields().Document(doc);
      if (!stored.ok()) {
        Problem(
            absl::StrCat(name, ": stored fields of doc ", doc, ": ", stored.status().message()));
        break;
      }
      for (const StoredField& f : *stored) {
        if (f.field_number >= seg.fields().size() || !seg.fields()[f.field_number].type.stored) {
          Problem(absl::StrCat(name, ": doc ", doc, " stores field ", f.field_number,
                               " which is not a stored field"));
        }
      }
      CheckVectors(seg, doc);
    }
  }

 private:
  void CheckField(const SegmentReader& seg, const FieldInfo& field, std::vector<bool>* has_field) {
    const std::string where = absl::StrCat(seg.info().name, " field ", field.name);
    const TermDictReader* dict = seg.Terms(field.number);
    if (dict == nullptr) return;
    const FieldTermsStats* stats = seg.TermsStats(field.number);
    const uint32_t docs = seg.doc_count();
    has_field->assign(docs, false);
    const bool freqs = HasFreqs(field.type.index_options);
    const bool positions = HasPositions(field.type.index_options);
    const bool offsets = HasOffsets(field.type.index_options);
    const bool norms = seg.HasNorms(field.number);
    FieldCheckStats& out = report_->fields[field.name];
    uint64_t terms = 0, sum_df = 0, sum_ttf = 0;
    std::string previous;
    TermDictCursor cursor = dict->NewCursor();
    for (;;) {
      absl::StatusOr<bool> next = cursor.Next();
      if (!next.ok()) {
        Problem(absl::StrCat(where, ": ", next.status().message()));
        return;
      }
      if (!*next) break;
      const std::string_view term = cursor.term();
      if (terms > 0 && CompareFrom(previous, term, 0) >= 0) {
        Problem(absl::StrCat(where, ": terms out of order at \"", absl::CEscape(Sv(term)), "\""));
      }
      previous.assign(term);
      ++terms;
      const TermStats& ts = cursor.stats();
      PostingsCursor it = seg.Postings(field.number, ts);
      // Full blocks' impacts: the frontier of each block's (freq, norm)
      // pairs, recomputed, against the skip header's (read by a second
      // cursor's shallow advance to the block's first doc).
      const bool impacts = it.has_impacts();
      const uint64_t impact_blocks = impacts ? ts.doc_freq / kForBlockSize : 0;
      std::optional<PostingsCursor> shallow;
      if (impact_blocks > 0) shallow.emplace(seg.Postings(field.number, ts));
      impact_set_.Take(&expected_);  // drops what a broken-off term left
      // Skip headers above the blocks (.doc version 3 on): each run's, as
      // stored and as its blocks' headers add up, against its documents.
      std::vector<PostingsCursor::SkipGroup> groups;
      if (it.has_skip_groups() && ts.doc_freq >= kSkipGroupDocs) {
        PostingsCursor walker = seg.Postings(field.number, ts);
        if (!walker.ReadSkipGroups(&groups)) {
          Problem(absl::StrCat(where, " term \"", absl::CEscape(Sv(term)),
                               "\": ", walker.status().message()));
        }
      }
      // Per level, its runs in doc order and the one being checked.
      uint64_t group_docs = 0;  // docs up to the last run's end
      for (RunCheck& level : runs_) level = RunCheck{};
      for (const PostingsCursor::SkipGroup& g : groups) {
        RunCheck& level = runs_[g.level];
        level.runs.push_back(&g);
        group_docs = std::max(group_docs, RunEnd(g));
      }
      for (RunCheck& level : runs_) level.set.Take(&expected_);
      uint32_t block_first = 0;
      uint64_t df = 0, ttf = 0;
      int64_t last_doc = -1;
      while (it.NextDoc()) {
        if (it.doc() >= docs || static_cast<int64_t>(it.doc()) <= last_doc) {
          Problem(absl::StrCat(where, " term \"", absl::CEscape(Sv(term)), "\": doc ", it.doc(),
                               " out of range or order"));
          break;
        }
        last_doc = it.doc();
        (*has_field)[it.doc()] = true;
        const uint8_t norm = norms && (df < group_docs || df / kForBlockSize < impact_blocks)
                                 ? seg.Norm(field.number, it.doc())
                                 : 1;
        if (df / kForBlockSize < impact_blocks) {
          if (df % kForBlockSize == 0) block_first = it.doc();
          impact_set_.Add(it.freq(), norm);
          if (df % kForBlockSize == kForBlockSize - 1) {
            CheckBlockImpacts(where, term, df / kForBlockSize, block_first, it.doc(), *shallow);
          }
        }
        if (df < group_docs) {
          for (RunCheck& level : runs_) {
            if (level.next == level.runs.size()) continue;
            const PostingsCursor::SkipGroup& g = *level.runs[level.next];
            if (df < g.first_block * kForBlockSize) continue;
            if (df == g.first_block * kForBlockSize) {
              level.first = it.doc();
              level.freq_sum = 0;
            }
            level.freq_sum += it.freq();
            if (impacts) level.set.Add(it.freq(), norm);
            if (df + 1 == RunEnd(g)) {
              CheckGroup(where, term, level, it.doc(), positions, impacts, g);
              ++level.next;
            }
          }
        }
        ++df;
        ttf += it.freq();
        if (it.freq() == 0) Problem(absl::StrCat(where, ": zero freq"));
        if (positions) {
          uint32_t last_pos = 0, last_start = 0;
          for (uint32_t i = 0; i < it.freq(); ++i) {
            if (!it.NextPosition()) {
              Problem(absl::StrCat(where, " term \"", absl::CEscape(Sv(term)), "\" doc ", it.doc(),
                                   ": fewer positions than its freq"));
              break;
            }
            if ((i > 0 && it.position() < last_pos) ||
                it.position() > IndexingChain::kMaxPosition) {
              Problem(absl::StrCat(where, ": positions out of order"));
            }
            if (offsets && ((i > 0 && it.start_offset() < last_start) ||
                            it.end_offset() < it.start_offset())) {
              Problem(absl::StrCat(where, ": offsets out of order"));
            }
            last_pos = it.position();
            last_start = it.start_offset();
          }
        }
      }
      if (!it.status().ok()) {
        Problem(absl::StrCat(where, " term \"", absl::CEscape(Sv(term)),
                             "\": ", it.status().message()));
      }
      if (df != ts.doc_freq) {
        Problem(absl::StrCat(where, " term \"", absl::CEscape(Sv(term)), "\": doc freq ",
                             ts.doc_freq, " but ", df, " postings"));
      }
      if (freqs && ttf != ts.total_term_freq) {
        Problem(absl::StrCat(where, " term \"", absl::CEscape(Sv(term)), "\": total term freq ",
                             ts.total_term_freq, " but freqs sum to ", ttf));
      }
      sum_df += ts.doc_freq;
      sum_ttf += ts.total_term_freq;
    }
    const uint64_t field_docs = std::count(has_field->begin(), has_field->end(), true);
    if (stats == nullptr || stats->term_count != terms || stats->sum_doc_freq != sum_df ||
        stats->sum_total_term_freq != sum_ttf || stats->doc_count != field_docs) {
      Problem(absl::StrCat(where, ": field statistics disagree with the postings"));
    }
    out.terms += terms;
    out.postings += sum_df;
    if (positions) out.positions += sum_ttf;
  }

  // Compares the impacts `shallow` reads for block `block` (docs first..last)
  // with the frontier of what impact_set_ collected from its documents.
  void CheckBlockImpacts(const std::string& where, std::string_view term, uint64_t block,
                         uint32_t first, uint32_t last, PostingsCursor& shallow) {
    impact_set_.Take(&expected_);
    const uint32_t end = shallow.AdvanceShallow(first);
    const std::span<const Impact> stored = shallow.impacts();
    if (end == last &&
        std::equal(stored.begin(), stored.end(), expected_.begin(), expected_.end())) {
      return;
    }
    auto show = ShowImpacts;
    Problem(
        absl::StrCat(where, " term \"", absl::CEscape(Sv(term)), "\" block ", block, " (docs ",
                     first, "..", last, "): impacts (freq/norm) ", show(stored), " ending at doc ",
                     end, ", but its documents give ", show(expected_),
                     shallow.status().ok() ? "" : absl::StrCat(": ", shallow.status().message())));
  }

  // A run of blocks being checked against its documents (one per level).
  struct RunCheck {
    std::vector<const PostingsCursor::SkipGroup*> runs;  // the level's, in doc order
    size_t next = 0;                                     // the one being checked
    uint32_t first = 0;                                  // its first doc
    uint64_t freq_sum = 0;                               // its docs' freqs so far
    ImpactSet set;                                       // their (freq, norm) pairs
  };
  // The index of the doc after run `g`'s last, among the term's docs.
  static uint64_t RunEnd(const PostingsCursor::SkipGroup& g) {
    return (g.first_block + SkipRunBlocks(g.level)) * kForBlockSize;
  }

  // Compares run `g`'s skip header (its docs `level.first`..`last`, whose
  // freqs and (freq, norm) pairs `level` collected) with its documents and
  // with its blocks' own headers.
  void CheckGroup(const std::string& where, std::string_view term, RunCheck& level, uint32_t last,
                  bool positions, bool impacts, const PostingsCursor::SkipGroup& g) {
    level.set.Take(&expected_);
    const uint64_t freq_sum = level.freq_sum;
    std::string wrong;
    auto add = [&wrong](std::string_view what) {
      absl::StrAppend(&wrong, wrong.empty() ? "" : "; ", Sv(what));
    };
    if (g.last_doc != last || g.blocks_last_doc != last) {
      add(absl::StrCat("last doc ", g.last_doc, ", its blocks end at ", g.blocks_last_doc));
    }
    if (g.bytes != g.blocks_bytes) {
      add(absl::StrCat("run bytes ", g.bytes, ", its blocks take ", g.blocks_bytes));
    }
    if (positions && (g.freq_sum != freq_sum || g.blocks_freq_sum != freq_sum)) {
      add(absl::StrCat("freq_sum ", g.freq_sum, ", its blocks say ", g.blocks_freq_sum,
                       ", its documents ", freq_sum));
    }
    if (positions && g.pos_fp_delta != g.blocks_pos_fp) {
      add(absl::StrCat("pos_fp_delta ", g.pos_fp_delta, ", its blocks move ", g.blocks_pos_fp));
    }
    if (impacts && g.impacts != expected_) {
      add(absl::StrCat("impacts (freq/norm) ", ShowImpacts(g.impacts), ", but its documents give ",
                       ShowImpacts(expected_)));
    }
    if (wrong.empty()) return;
    const uint64_t blocks = SkipRunBlocks(g.level);
    Problem(absl::StrCat(where, " term \"", absl::CEscape(Sv(term)), "\" ",
                         g.level == 1 ? "group" : absl::StrCat("level-", g.level, " run"), " ",
                         g.first_block / blocks, " (blocks ", g.first_block, "..",
                         g.first_block + blocks - 1, ", docs ", level.first, "..", last,
                         "): level-", g.level, " skip header disagrees: ", wrong));
  }

  static std::string ShowImpacts(std::span<const Impact> pairs) {
    std::string out;
    for (const Impact& i : pairs)
      absl::StrAppend(&out, out.empty() ? "" : " ", i.freq, "/", i.norm);
    return out;
  }

  void CheckVectors(const SegmentReader& seg, uint32_t doc) {
    absl::StatusOr<std::vector<TermVectorFieldData>> vectors = seg.term_vectors().Get(doc);
    if (!vectors.ok()) {
      Problem(absl::StrCat(seg.info().name, ": term vectors of doc ", doc, ": ",
                           vectors.status().message()));
      return;
    }
    for (const TermVectorFieldData& f : *vectors) {
      if (f.field_number >= seg.fields().size() ||
          !seg.fields()[f.field_number].type.term_vectors) {
        Problem(absl::StrCat(seg.info().name, ": doc ", doc, " has term vectors for field ",
                             f.field_number, " which has none"));
        continue;
      }
      const TermDictReader* dict = seg.Terms(f.field_number);
      if (dict == nullptr) {
        Problem(absl::StrCat(seg.info().name, ": term vectors for a field without terms"));
        continue;
      }
      TermDictCursor cursor = dict->NewCursor();
      for (const TermVectorTermData& t : f.terms) {
        absl::StatusOr<bool> found = cursor.SeekExact(t.term);
        if (!found.ok() || !*found) {
          Problem(absl::StrCat(seg.info().name, ": doc ", doc, " vector term \"",
                               absl::CEscape(t.term), "\" is not in the term dictionary"));
          continue;
        }
        PostingsCursor it = seg.Postings(f.field_number, cursor.stats());
        if (!it.Advance(doc) || it.doc() != doc) {
          Problem(absl::StrCat(seg.info().name, ": doc ", doc, " vector term \"",
                               absl::CEscape(t.term), "\" has no posting for the doc"));
        } else if (HasFreqs(seg.fields()[f.field_number].type.index_options) &&
                   it.freq() != t.freq) {
          Problem(absl::StrCat(seg.info().name, ": doc ", doc, " vector term \"",
                               absl::CEscape(t.term), "\" freq differs from the postings"));
        }
      }
    }
  }

  CheckReport* report_;
  ImpactSet impact_set_;                           // the block being checked
  std::array<RunCheck, kMaxSkipLevels + 1> runs_;  // [L]: level L's runs ([0] unused)
  std::vector<Impact> expected_;
};

}  // namespace

CheckReport CheckIndex(Directory* dir, const CheckOptions& options) {
  CheckReport report;
  CommitReaderOptions open_options;
  open_options.recover = options.recover;
  open_options.live_docs = false;  // read below, so that a damaged one is one problem
  absl::StatusOr<std::unique_ptr<CommitReader>> reader = CommitReader::Open(dir, open_options);
  if (!reader.ok()) {
    report.ok = false;
    report.problems.push_back(std::string(reader.status().message()));
    return report;
  }
  for (const std::string& skipped : (*reader)->skipped_commits()) {
    report.notes.push_back(absl::StrCat("passed over unreadable commit point ", skipped));
  }
  for (const std::string& foreign : (*reader)->foreign_commit_files()) {
    report.notes.push_back(absl::StrCat(foreign, " is named like a commit point but is not one"));
  }
  const CommitPoint& commit = (*reader)->commit();
  report.generation = commit.generation;
  report.segments = (*reader)->segment_count();
  report.docs = commit.live_doc_count();
  report.deleted_docs = commit.doc_count() - commit.live_doc_count();
  Checker checker(&report);
  // One schema: every segment of this index, every field of the commit's type.
  absl::flat_hash_map<std::string, const FieldType*> schema;
  for (const FieldInfo& f : commit.schema) schema.emplace(f.name, &f.type);
  for (size_t i = 0; i < (*reader)->segment_count(); ++i) {
    const SegmentReader& seg = (*reader)->segment(i);
    if (!SegmentBelongsToIndex(seg.info().id, commit.index_id)) {
      checker.Problem(absl::StrCat(seg.info().name, ": its id does not belong to this index"));
    }
    for (const FieldInfo& f : seg.fields()) {
      auto it = schema.find(f.name);
      if (it == schema.end()) {
        checker.Problem(absl::StrCat(seg.info().name, ": field \"", absl::CEscape(f.name),
                                     "\" is not in the commit's schema"));
      } else if (*it->second != f.type) {
        checker.Problem(absl::StrCat(seg.info().name, ": field \"", absl::CEscape(f.name), "\" is ",
                                     f.type.Describe(), " but the schema says ",
                                     it->second->Describe()));
      }
    }
    checker.CheckSegment(seg);
    // Its live docs: the commit's file (checksum recorded in the commit),
    // intact, of this segment and generation, with the commit's counts.
    const CommitSegment& entry = commit.segments[i];
    if (absl::StatusOr<std::shared_ptr<const LiveDocs>> live = OpenCommitLiveDocs(dir, entry);
        !live.ok()) {
      checker.Problem(std::string(StdSv(live.status().message())));
    }
    SegmentCheckStats stats{seg.info().name,       seg.doc_count(), 0,
                            seg.info().created_by, entry.del_count, entry.del_gen};
    for (const SegmentFile& f : seg.info().files) stats.bytes += f.length;
    report.segment_stats.push_back(std::move(stats));
  }
  // Files that are not part of this commit of the index.
  if (absl::StatusOr<std::vector<std::string>> names = dir->ListAll(); names.ok()) {
    for (const std::string& name : *names) {
      if (name == commit.file_name() || name == kWriteLockName) continue;
      bool live = false;
      if (std::optional<SegmentFileNameParts> parts = ParseSegmentFileName(name)) {
        // A segment's files, and of its live docs only the commit's generation.
        for (const CommitSegment& s : commit.segments) {
          live |= parts->segment == s.name && (parts->del_gen == 0 || parts->del_gen == s.del_gen);
        }
      }
      if (!live) report.not_in_index.push_back(name);
    }
  }
  return report;
}

CheckReport CheckIndex(const std::string& path, const CheckOptions& options) {
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, /*create=*/false);
  if (!dir.ok()) {
    CheckReport report;
    report.ok = false;
    report.problems.push_back(std::string(StdSv(dir.status().message())));
    return report;
  }
  return CheckIndex(dir->get(), options);
}

std::string FormatCheckReport(const CheckReport& r) {
  std::string out = absl::StrFormat("commit generation %d: %d segments, %d documents, %d bytes\n",
                                    r.generation, r.segments, r.docs, r.index_bytes);
  if (r.deleted_docs > 0) {
    absl::StrAppend(&out, absl::StrFormat("deleted: %d documents (still in the segments, counted "
                                          "by the statistics until a merge drops them)\n",
                                          r.deleted_docs));
    for (const SegmentCheckStats& s : r.segment_stats) {
      if (s.deleted == 0) continue;
      absl::StrAppend(&out,
                      absl::StrFormat("  segment %s: %d documents, %d deleted (del_gen %d), "
                                      "%d live\n",
                                      s.name, s.docs, s.deleted, s.del_gen, s.docs - s.deleted));
    }
  }
  for (const std::string& note : r.notes) absl::StrAppend(&out, "note: ", note, "\n");
  if (!r.not_in_index.empty()) {
    absl::StrAppend(&out, "note: ", r.not_in_index.size(),
                    " file(s) in the directory are not part of the index:");
    for (const std::string& f : r.not_in_index) absl::StrAppend(&out, " ", absl::CEscape(f));
    absl::StrAppend(&out, "\n");
  }
  uint64_t postings = 0, positions = 0;
  absl::StrAppend(
      &out, absl::StrFormat("%-20s %14s %14s %14s\n", "field", "terms", "postings", "positions"));
  for (const auto& [name, f] : r.fields) {
    absl::StrAppend(
        &out, absl::StrFormat("%-20s %14d %14d %14d\n", name, f.terms, f.postings, f.positions));
    postings += f.postings;
    positions += f.positions;
  }
  if (postings > 0) {
    absl::StrAppend(&out, absl::StrFormat("doc file: %.2f bytes per posting; ",
                                          1.0 * r.doc_file_bytes / postings));
  }
  if (positions > 0) {
    absl::StrAppend(&out, absl::StrFormat("pos file: %.2f bytes per position; ",
                                          1.0 * r.pos_file_bytes / positions));
  }
  if (postings > 0) {
    absl::StrAppend(&out, absl::StrFormat("whole index: %.2f bytes per posting\n",
                                          1.0 * r.index_bytes / postings));
  }
  if (r.ok) {
    absl::StrAppend(&out, "OK: every checksum and invariant holds\n");
  } else {
    absl::StrAppend(&out, "BROKEN: ", r.problems.size(), " problem(s)\n");
    for (const std::string& p : r.problems) absl::StrAppend(&out, "  ", p, "\n");
  }
  return out;
}

}  // namespace invert
