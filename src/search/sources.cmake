# search/: scoring (BM25), queries and the searcher.
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bm25.cc
)
