# index/: terms hash, per-field consumers, the indexing chain.
target_sources(invert PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/in_memory_postings.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_bytes_layout.cc
  ${CMAKE_CURRENT_LIST_DIR}/terms_hash.cc
)
