# testing/: test support, not part of libinvert: FaultInjectingDirectory (makes
# chosen directory operations fail) and DumpSegment (a flushed segment as
# canonical text). invert_testing is linked by the tests and the fuzzers only.
add_library(invert_testing STATIC EXCLUDE_FROM_ALL
  ${CMAKE_CURRENT_LIST_DIR}/fault_injecting_directory.cc
  ${CMAKE_CURRENT_LIST_DIR}/segment_dump.cc
)
target_link_libraries(invert_testing PUBLIC invert_internal)
invert_target_defaults(invert_testing)
