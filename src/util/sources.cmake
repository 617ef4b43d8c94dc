# util/: pools, slices, the term hash, radix sort, varints.
target_sources(invert_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/block_allocator.cc
  ${CMAKE_CURRENT_LIST_DIR}/byte_block_pool.cc
  ${CMAKE_CURRENT_LIST_DIR}/byte_slices.cc
  ${CMAKE_CURRENT_LIST_DIR}/bytes_ref_hash.cc
  ${CMAKE_CURRENT_LIST_DIR}/int_block_pool.cc
)
