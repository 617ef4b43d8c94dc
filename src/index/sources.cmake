# index/: terms hash, per-field consumers, the indexing chain.
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/in_memory_postings.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_bytes_layout.cc
  ${CMAKE_CURRENT_LIST_DIR}/terms_hash.cc
)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/field_infos.cc
  ${CMAKE_CURRENT_LIST_DIR}/field_type.cc
  ${CMAKE_CURRENT_LIST_DIR}/indexing_chain.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_vectors_writer_per_field.cc
)
invert_library_link(PRIVATE absl::flat_hash_map absl::str_format Threads::Threads)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/in_memory_segment.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_checker.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_file_deleter.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_schema.cc
  ${CMAKE_CURRENT_LIST_DIR}/commit_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_reader_impl.cc
  ${CMAKE_CURRENT_LIST_DIR}/leaf_reader_impl.cc
  ${CMAKE_CURRENT_LIST_DIR}/terms_enum_impl.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_writer.cc
  ${CMAKE_CURRENT_LIST_DIR}/merge_policy.cc
  ${CMAKE_CURRENT_LIST_DIR}/buffered_deletes.cc
  ${CMAKE_CURRENT_LIST_DIR}/segment_copy.cc
  ${CMAKE_CURRENT_LIST_DIR}/segment_flush.cc
  ${CMAKE_CURRENT_LIST_DIR}/segment_merger.cc
  ${CMAKE_CURRENT_LIST_DIR}/tiered_merge_policy.cc
  ${CMAKE_CURRENT_LIST_DIR}/version.cc
)
