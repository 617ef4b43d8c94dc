# Install rules (INVERT_INSTALL): the public headers, the library, the CMake
# package (find_package(invert CONFIG) -> invert::invert) and invert.pc.
#
# The package's dependencies are derived from invert's own link interface, so
# the config file and invert.pc cannot drift from what the library links:
# every dependency must have an entry in invert_describe_dependency() below
# (configuring fails on one that has not). A shared libinvert needs only its
# public dependencies at a consumer's link; a static one also its private ones,
# which CMake exports as $<LINK_ONLY:...> and invert.pc lists as
# Requires.private / Libs.private.
include(CMakePackageConfigHelpers)

set(INVERT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/invert)

install(TARGETS invert EXPORT invertTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/invert DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/invert/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/invert)
install(EXPORT invertTargets NAMESPACE invert:: DESTINATION ${INVERT_CMAKE_DIR})

# For one dependency of invert (a target name), appends to the caller's
# INVERT_<KIND>_FIND (lines of the config file), INVERT_<KIND>_PC (pkg-config
# modules) and INVERT_<KIND>_LIBS (plain linker flags); KIND is PUBLIC or PRIVATE.
function(invert_describe_dependency dep kind)
  set(find "")
  set(pc "")
  set(libs "")
  if(dep MATCHES "^absl::(.+)$")
    set(find "find_dependency(absl CONFIG)")
    set(pc "absl_${CMAKE_MATCH_1}")
  elseif(dep MATCHES "^ICU::(uc|i18n)$")
    set(find "find_dependency(ICU COMPONENTS uc i18n)")
    set(pc "icu-${CMAKE_MATCH_1}")
  elseif(dep STREQUAL "simdjson::simdjson")
    set(find "find_dependency(simdjson CONFIG)")
    set(pc "simdjson")
  elseif(dep STREQUAL "Threads::Threads")
    set(find "find_dependency(Threads)")
    set(libs "-pthread")
  elseif(dep MATCHES "^PkgConfig::(.+)$")
    # Recreate the same imported target the library was linked with.
    set(prefix ${CMAKE_MATCH_1})
    set(pc ${${prefix}_MODULE_NAME})
    string(JOIN "\n" block "if(NOT TARGET ${dep})"
                "  pkg_check_modules(${prefix} REQUIRED QUIET IMPORTED_TARGET ${pc})" "endif()")
    set(find "find_dependency(PkgConfig)" "${block}")
  else()
    message(FATAL_ERROR "install.cmake: invert links ${dep}; describe it in invert_describe_dependency()")
  endif()
  foreach(var FIND PC LIBS)
    string(TOLOWER ${var} local)
    if(${local})
      set(INVERT_${kind}_${var} ${INVERT_${kind}_${var}} ${${local}} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# Public: what invert's interface names outright. Private: what it links
# besides (a static consumer links those too).
get_target_property(INVERT_LINKED invert LINK_LIBRARIES)
get_target_property(INVERT_INTERFACE invert INTERFACE_LINK_LIBRARIES)
set(INVERT_PUBLIC_DEPS "")
foreach(dep ${INVERT_INTERFACE})
  if(NOT dep MATCHES "^\\$<LINK_ONLY:")
    list(APPEND INVERT_PUBLIC_DEPS ${dep})
  endif()
endforeach()
set(INVERT_PRIVATE_DEPS ${INVERT_LINKED})
list(REMOVE_ITEM INVERT_PRIVATE_DEPS ${INVERT_PUBLIC_DEPS})
foreach(kind PUBLIC PRIVATE)
  foreach(var FIND PC LIBS)
    set(INVERT_${kind}_${var} "")
  endforeach()
  list(REMOVE_DUPLICATES INVERT_${kind}_DEPS)
  foreach(dep ${INVERT_${kind}_DEPS})
    invert_describe_dependency(${dep} ${kind})
  endforeach()
  foreach(var FIND PC LIBS)
    list(REMOVE_DUPLICATES INVERT_${kind}_${var})
  endforeach()
endforeach()

# invertConfig.cmake: public dependencies always; private ones only for a
# static library, whose exported interface names them as $<LINK_ONLY:...>.
# (A shared one's export also names its private shared dependencies, in
# IMPORTED_LINK_DEPENDENT_LIBRARIES, for -rpath-link only: a consumer that has
# not found them gets no -rpath-link, which libraries in the system's library
# path do not need; scripts/check_install.sh builds such a consumer.)
string(JOIN "\n" INVERT_FIND_DEPENDENCIES ${INVERT_PUBLIC_FIND})
if(NOT BUILD_SHARED_LIBS)
  list(REMOVE_ITEM INVERT_PRIVATE_FIND ${INVERT_PUBLIC_FIND})
  string(JOIN "\n" INVERT_FIND_PRIVATE ${INVERT_PRIVATE_FIND})
  string(APPEND INVERT_FIND_DEPENDENCIES "\n# Static library: what it links privately.\n${INVERT_FIND_PRIVATE}")
endif()
configure_package_config_file(cmake/invertConfig.cmake.in
  ${PROJECT_BINARY_DIR}/invertConfig.cmake
  INSTALL_DESTINATION ${INVERT_CMAKE_DIR})
# Version check: before 1.0 any minor release may break the API (semantic
# versioning), so find_package(invert 0.1) accepts 0.1.x only; from 1.0 on,
# any 1.y satisfies 1.x. The soname follows the same rule (library.cmake).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(INVERT_COMPATIBILITY SameMinorVersion)
else()
  set(INVERT_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/invertConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${INVERT_COMPATIBILITY})
install(FILES ${PROJECT_BINARY_DIR}/invertConfig.cmake ${PROJECT_BINARY_DIR}/invertConfigVersion.cmake
        DESTINATION ${INVERT_CMAKE_DIR})

# invert.pc: public dependencies in Requires, private ones in Requires.private
# and Libs.private (pkg-config --static adds those).
string(JOIN " " INVERT_PC_REQUIRES ${INVERT_PUBLIC_PC})
list(REMOVE_ITEM INVERT_PRIVATE_PC ${INVERT_PUBLIC_PC})
string(JOIN " " INVERT_PC_REQUIRES_PRIVATE ${INVERT_PRIVATE_PC})
string(JOIN " " INVERT_PC_LIBS_PRIVATE ${INVERT_PUBLIC_LIBS} ${INVERT_PRIVATE_LIBS})
# prefix is found from the .pc file's own place, so the prefix given to
# cmake --install --prefix (or a moved tree) is right.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(INVERT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH INVERT_PC_UP /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
  string(REGEX REPLACE "/$" "" INVERT_PC_UP "${INVERT_PC_UP}")
  set(INVERT_PC_PREFIX "\${pcfiledir}/${INVERT_PC_UP}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(INVERT_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(INVERT_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(INVERT_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(INVERT_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(cmake/invert.pc.in ${PROJECT_BINARY_DIR}/invert.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/invert.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
