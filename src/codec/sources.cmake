# codec/: the codec primitives segment files are built from: frame-of-reference
# bit packing, stored-fields block compression (LZ4, zstd), term dictionary
# blocks. Works on plain byte buffers; see docs/codec-primitives.md.
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
target_sources(invert PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/block_compressor.cc
  ${CMAKE_CURRENT_LIST_DIR}/for_block.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_dict_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_dict_writer.cc
)
target_link_libraries(invert PRIVATE PkgConfig::LZ4 PkgConfig::ZSTD)
