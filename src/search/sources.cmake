# search/: scoring (BM25), queries and the searcher.
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bm25.cc
  ${CMAKE_CURRENT_LIST_DIR}/boolean_scorer.cc
  ${CMAKE_CURRENT_LIST_DIR}/constant_scorer.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_searcher.cc
  ${CMAKE_CURRENT_LIST_DIR}/phrase_freq.cc
  ${CMAKE_CURRENT_LIST_DIR}/phrase_scorer.cc
  ${CMAKE_CURRENT_LIST_DIR}/query.cc
  ${CMAKE_CURRENT_LIST_DIR}/term_scorer.cc
  ${CMAKE_CURRENT_LIST_DIR}/weight.cc
)
