# corpus/: document sources (line documents, JSON lines) in the library, and
# the generator of Wikipedia-like line documents behind tools/gen (invert-gen),
# which is not.
find_package(simdjson CONFIG REQUIRED)  # Debian: libsimdjson-dev
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/doc_block.cc
  ${CMAKE_CURRENT_LIST_DIR}/json_lines.cc
  ${CMAKE_CURRENT_LIST_DIR}/line_block.cc
  ${CMAKE_CURRENT_LIST_DIR}/line_doc_schema.cc
  ${CMAKE_CURRENT_LIST_DIR}/line_docs.cc
  ${CMAKE_CURRENT_LIST_DIR}/line_reader.cc
)
invert_library_link(PRIVATE simdjson::simdjson absl::flat_hash_map absl::str_format)

# invert_corpus_gen: the corpus generator (vocabulary, Zipf sampling, corpus
# statistics), for invert-gen and the tests. Not in libinvert, and it needs
# none of it (only the header-only util/random.h), so invert-gen can link the
# shared libinvert without a second copy of the library's code.
add_library(invert_corpus_gen STATIC EXCLUDE_FROM_ALL
  ${CMAKE_CURRENT_LIST_DIR}/corpus_stats.cc
  ${CMAKE_CURRENT_LIST_DIR}/vocabulary.cc
  ${CMAKE_CURRENT_LIST_DIR}/wiki_gen.cc
  ${CMAKE_CURRENT_LIST_DIR}/zipf.cc
)
target_include_directories(invert_corpus_gen PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(invert_corpus_gen PUBLIC absl::flat_hash_map absl::str_format absl::strings)
invert_target_defaults(invert_corpus_gen)
