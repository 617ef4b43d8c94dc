# analysis/: UTF-8 checks, the token buffer and the analyzers (ICU word
# segmentation, case folding, NFKC).
find_package(ICU REQUIRED COMPONENTS uc i18n)
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/simple_analyzers.cc
  ${CMAKE_CURRENT_LIST_DIR}/standard_analyzer.cc
  ${CMAKE_CURRENT_LIST_DIR}/token_buffer.cc
  ${CMAKE_CURRENT_LIST_DIR}/utf8.cc
)
invert_library_link(PRIVATE ICU::uc ICU::i18n)
