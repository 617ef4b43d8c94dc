// IndexFileDeleter: what may be deleted, and deleting it.
#include "index/index_file_deleter.h"

#include <algorithm>

#include "codec/live_docs_format.h"
#include "codec/segment_files.h"
#include "index/segment_flush.h"
#include "store/codec_util.h"
#include "util/absl_compat.h"

namespace invert {

absl::StatusOr<CommitInventory> IndexFileDeleter::Scan() {
  absl::StatusOr<std::vector<std::string>> names = dir_->ListAll();
  if (!names.ok()) return names.status();
  CommitInventory inventory;
  std::vector<uint64_t> foreign_generations;
  for (const std::string& name : *names) {
    if (std::optional<SegmentFileNameParts> parts = ParseSegmentFileName(name)) {
      inventory.max_segment_number_seen =
          std::max(inventory.max_segment_number_seen, parts->number + 1);
      if (parts->del_gen > 0) {
        uint64_t& gen = inventory.max_del_gen_seen[std::string(parts->segment)];
        gen = std::max(gen, parts->del_gen);
      }
      continue;
    }
    if (const int64_t pending = PendingCommitGeneration(name); pending >= 0) {
      inventory.max_generation_seen =
          std::max(inventory.max_generation_seen, static_cast<uint64_t>(pending));
      continue;
    }
    if (CommitGeneration(name) < 0) continue;
    inventory.max_generation_seen =
        std::max(inventory.max_generation_seen, static_cast<uint64_t>(CommitGeneration(name)));
    absl::StatusOr<std::shared_ptr<const MappedFile>> file = dir_->OpenFile(name);
    if (file.ok() && IsForeignCommitFile((*file)->bytes())) {
      foreign_generations.push_back(static_cast<uint64_t>(CommitGeneration(name)));
      continue;
    }
    absl::StatusOr<CommitPoint> commit = ReadCommit(dir_, name);
    if (!commit.ok()) {
      if (absl::IsNotFound(commit.status())) continue;  // deleted meanwhile
      inventory.damaged.push_back(name);
      allow_leftovers_ = false;
      continue;
    }
    if (commit->index_id != index_id_) {
      inventory.other_index.push_back(name);
      continue;
    }
    for (const CommitSegment& s : commit->segments) listed_.insert(s.name);
    inventory.readable.push_back(std::move(*commit));
  }
  // A foreign-looking file newer than every readable commit point may be a
  // commit point overwritten whole: keep what it may list.
  uint64_t newest_readable = 0;
  for (const CommitPoint& c : inventory.readable) {
    newest_readable = std::max(newest_readable, c.generation);
  }
  for (uint64_t g : foreign_generations) {
    if (g > newest_readable) allow_leftovers_ = false;
  }
  for (const auto& [segment, gen] : inventory.max_del_gen_seen) {
    uint64_t& seen = del_gen_at_scan_[segment];
    seen = std::max(seen, gen);
  }
  return inventory;
}

bool IndexFileDeleter::HeaderBelongsToIndex(std::string_view file) const {
  absl::StatusOr<std::shared_ptr<const MappedFile>> mapped = dir_->OpenFile(file);
  if (!mapped.ok()) return false;
  const std::span<const uint8_t> b = (*mapped)->bytes();
  // magic fixed32 | VInt name length (< 128: one byte) | name | version fixed32 | id
  if (b.size() < 5) return false;
  const uint32_t magic =
      uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
  if (magic != kCodecHeaderMagic) return false;
  const size_t name_length = b[4];
  if (name_length == 0 || name_length > kMaxCodecNameLength) return false;
  const size_t id_at = 5 + name_length + 4;
  if (b.size() < id_at + kSegmentIdLength) return false;
  SegmentId id;
  std::copy(b.begin() + id_at, b.begin() + id_at + kSegmentIdLength, id.begin());
  return SegmentBelongsToIndex(id, index_id_);
}

bool IndexFileDeleter::Deletable(const SegmentFileNameParts& parts, std::string_view name) const {
  if (own_.contains(parts.segment)) return true;  // (a)
  if (!allow_leftovers_) {
    // A damaged commit point may list anything that was here at Scan: only
    // a .liv generation written since then is provably not listed by it.
    if (parts.del_gen == 0) return false;
    const auto seen = del_gen_at_scan_.find(parts.segment);
    return listed_.contains(parts.segment) &&
           (seen == del_gen_at_scan_.end() || parts.del_gen > seen->second);
  }
  return listed_.contains(parts.segment) || HeaderBelongsToIndex(name);  // (b), (c)
}

std::vector<std::string> IndexFileDeleter::DeleteUnreferenced(
    const std::vector<CommitPoint>& keep) {
  std::vector<std::string> deleted;
  uint64_t oldest_kept = UINT64_MAX;
  std::set<std::string, std::less<>> live;      // segments
  std::set<std::string, std::less<>> live_liv;  // their current .liv files
  for (const CommitPoint& c : keep) {
    oldest_kept = std::min(oldest_kept, c.generation);
    for (const CommitSegment& s : c.segments) {
      live.insert(s.name);
      if (s.del_gen > 0) live_liv.insert(LiveDocsFileName(s.name, s.del_gen));
    }
  }
  absl::StatusOr<std::vector<std::string>> names = dir_->ListAll();
  if (!names.ok()) return deleted;
  for (const std::string& name : *names) {
    bool remove = false;
    if (PendingCommitGeneration(name) >= 0) {
      remove = true;
    } else if (const int64_t generation = CommitGeneration(name); generation >= 0) {
      if (static_cast<uint64_t>(generation) < oldest_kept) {
        absl::StatusOr<CommitPoint> commit = ReadCommit(dir_, name);
        remove = commit.ok() && commit->index_id == index_id_;
      }
    } else if (std::optional<SegmentFileNameParts> parts = ParseSegmentFileName(name)) {
      const bool referenced =
          parts->del_gen > 0 ? live_liv.contains(name) : live.contains(parts->segment);
      if (!referenced) remove = Deletable(*parts, name);
    }
    if (remove) {
      absl::Status s = dir_->DeleteFile(name);
      if (s.ok() || absl::IsNotFound(s)) deleted.push_back(name);
    }
  }
  return deleted;
}

}  // namespace invert
