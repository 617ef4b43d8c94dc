# store/: directories, files, checksums, atomic commits, fault injection,
# memory-mapped reads, prefetch and the batched read path.
target_sources(invert PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/atomic_file.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/codec_util.cc
  ${CMAKE_CURRENT_LIST_DIR}/directory.cc
  ${CMAKE_CURRENT_LIST_DIR}/fault_injecting_directory.cc
  ${CMAKE_CURRENT_LIST_DIR}/fs_directory.cc
  ${CMAKE_CURRENT_LIST_DIR}/fs_lock.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_input.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_output.cc
)

# io_uring for BatchReader (Debian: liburing-dev). Optional: without it the
# batched path uses the pread thread pool.
pkg_check_modules(URING IMPORTED_TARGET liburing)
if(URING_FOUND)
  target_link_libraries(invert PRIVATE PkgConfig::URING)
  target_compile_definitions(invert PRIVATE INVERT_HAVE_LIBURING=1)
else()
  message(STATUS "liburing not found: BatchReader uses the pread thread pool only")
endif()
find_package(Threads REQUIRED)
target_link_libraries(invert PRIVATE Threads::Threads)
