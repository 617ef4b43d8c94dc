# codec/: the codec primitives segment files are built from: frame-of-reference
# bit packing, stored-fields block compression (LZ4, zstd), term dictionary
# blocks. Works on plain byte buffers; see docs/codec-primitives.md.
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/block_compressor.cc
  ${CMAKE_CURRENT_LIST_DIR}/doc_block_sums.cc
  ${CMAKE_CURRENT_LIST_DIR}/for_block.cc
  ${CMAKE_CURRENT_LIST_DIR}/stored_fields_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_dict_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_dict_writer.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_vectors_format.cc
)
invert_library_link(PRIVATE PkgConfig::LZ4 PkgConfig::ZSTD)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/field_infos_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/impacts.cc
  ${CMAKE_CURRENT_LIST_DIR}/live_docs_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/norms_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/postings_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/segment_files.cc
  ${CMAKE_CURRENT_LIST_DIR}/segment_info_format.cc
)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/commit_format.cc
)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/segment_reader.cc
)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/term_lookup.cc
)
