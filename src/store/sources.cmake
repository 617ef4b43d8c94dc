# store/: directories, files, checksums, atomic commits, memory-mapped reads
# and prefetch in the library; the io_uring batch reader beside it, which is not.
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/atomic_file.cc
  ${CMAKE_CURRENT_LIST_DIR}/codec_util.cc
  ${CMAKE_CURRENT_LIST_DIR}/directory.cc
  ${CMAKE_CURRENT_LIST_DIR}/fs_directory.cc
  ${CMAKE_CURRENT_LIST_DIR}/fs_lock.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_input.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_output.cc
)
invert_library_link(PRIVATE Threads::Threads)

# invert_batch_reader: BatchReader, the batched read path (io_uring or a pread
# thread pool) the prefetch benchmarks compare mmap + Prefetch() with. Its own
# library so that liburing is never a dependency of libinvert. io_uring comes
# from liburing (Debian: liburing-dev); without it BatchReader uses the pread
# thread pool only.
add_library(invert_batch_reader STATIC EXCLUDE_FROM_ALL ${CMAKE_CURRENT_LIST_DIR}/batch_reader.cc)
target_link_libraries(invert_batch_reader PUBLIC invert_internal PRIVATE Threads::Threads)
invert_target_defaults(invert_batch_reader)
pkg_check_modules(URING QUIET IMPORTED_TARGET liburing)
if(URING_FOUND)
  target_link_libraries(invert_batch_reader PRIVATE PkgConfig::URING)
  target_compile_definitions(invert_batch_reader PRIVATE INVERT_HAVE_LIBURING=1)
else()
  message(STATUS "liburing not found: BatchReader uses the pread thread pool only")
endif()
