# The invert library, compiled once and linked twice.
#
#   invert_objects   the compiled code of every src/<layer>/: an OBJECT library,
#                    position-independent (so the static libinvert.a can go into
#                    a consumer's shared library too) and built with hidden
#                    symbol visibility.
#   invert           what users link (invert::invert once installed): static or
#                    shared per BUILD_SHARED_LIBS. A shared libinvert exports only
#                    what include/invert/ marks INVERT_EXPORT (invert/export.h).
#   invert_internal  what tests, benchmarks and fuzzers link (the tools link
#                    invert, like any user): the same code with every symbol
#                    reachable (a static library) plus the src/ headers. In a static build it is invert itself; in a shared
#                    build the objects are also archived as invert_internal_static,
#                    so nothing internal has to be exported from libinvert.so.
#
# Each layer lists its sources in src/<layer>/sources.cmake with
# target_sources(invert_objects PRIVATE ...) and its dependencies with
# invert_library_link(PUBLIC|PRIVATE ...). A folder whose code is not part of
# the library (src/testing/, the io_uring batch reader, the corpus generator)
# defines its own EXCLUDE_FROM_ALL target there instead, built only for what
# links it.

include(GNUInstallDirs)  # CMAKE_INSTALL_INCLUDEDIR, used below

add_library(invert_objects OBJECT)
set_target_properties(invert_objects PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)
target_compile_features(invert_objects PUBLIC cxx_std_20)
invert_target_defaults(invert_objects)

add_library(invert $<TARGET_OBJECTS:invert_objects>)
add_library(invert::invert ALIAS invert)
# While invert is 0.x, any minor release may change the ABI (semantic
# versioning promises nothing before 1.0), so the soname carries the minor
# version: libinvert.so.0.1 and libinvert.so.0.2 are different libraries and a
# program built against one never loads the other. From 1.0 on it is the major
# version alone. The package version check (install.cmake) follows the same rule.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(INVERT_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(INVERT_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()
set_target_properties(invert PROPERTIES
  VERSION ${PROJECT_VERSION}
  SOVERSION ${INVERT_SOVERSION}
  EXPORT_NAME invert)
target_compile_features(invert PUBLIC cxx_std_20)
invert_target_defaults(invert)
if(BUILD_SHARED_LIBS AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  # Export namespace invert only (what INVERT_EXPORT marks); see the map file.
  set(INVERT_VERSION_SCRIPT ${PROJECT_SOURCE_DIR}/cmake/libinvert.map)
  target_link_options(invert PRIVATE LINKER:--version-script=${INVERT_VERSION_SCRIPT})
  set_target_properties(invert PROPERTIES LINK_DEPENDS ${INVERT_VERSION_SCRIPT})
endif()

set(INVERT_LIBRARY_TARGETS invert_objects invert)
if(BUILD_SHARED_LIBS)
  add_library(invert_internal_static STATIC EXCLUDE_FROM_ALL $<TARGET_OBJECTS:invert_objects>)
  list(APPEND INVERT_LIBRARY_TARGETS invert_internal_static)
  set(INVERT_INTERNAL_LIBRARY invert_internal_static)
else()
  set(INVERT_INTERNAL_LIBRARY invert)
endif()

# target_link_libraries() on every target made from invert_objects: the object
# library compiles with the dependencies, the others link them.
function(invert_library_link)
  foreach(target ${INVERT_LIBRARY_TARGETS})
    target_link_libraries(${target} ${ARGN})
  endforeach()
endfunction()

# include/invert/version.h is generated from cmake/version.h.in.
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.h.in
               ${PROJECT_BINARY_DIR}/include/invert/version.h @ONLY)
foreach(target ${INVERT_LIBRARY_TARGETS})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
target_include_directories(invert_objects PRIVATE ${PROJECT_SOURCE_DIR}/src)
# The public headers use Abseil's Status and StatusOr (and nothing else of
# Abseil: scripts/check_headers.sh refuses its containers there).
invert_library_link(PUBLIC absl::status absl::statusor PRIVATE absl::strings PkgConfig::XXHASH)

file(GLOB INVERT_LAYER_SOURCE_LISTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*/sources.cmake)
foreach(list ${INVERT_LAYER_SOURCE_LISTS})
  include(${list})
endforeach()

# A source added to invert itself would be missing from invert_internal_static
# (shared builds): refuse it here rather than fail a test's link later.
get_target_property(INVERT_DIRECT_SOURCES invert SOURCES)
list(FILTER INVERT_DIRECT_SOURCES EXCLUDE REGEX "^\\$<TARGET_OBJECTS:invert_objects>$")
if(INVERT_DIRECT_SOURCES)
  message(FATAL_ERROR "Sources added to target invert: ${INVERT_DIRECT_SOURCES}\n"
                      "Add library sources to invert_objects (src/<layer>/sources.cmake).")
endif()

# Internal headers for tests, benchmarks and fuzzers, which exercise the
# layers directly. Not installed, not for users.
add_library(invert_internal INTERFACE)
target_include_directories(invert_internal INTERFACE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(invert_internal INTERFACE ${INVERT_INTERNAL_LIBRARY} PkgConfig::XXHASH)
