# Installing playtest (README "Install", docs/testing.md "Testing from C++"):
#   bin/playtest
#   include/playtest/**            the public headers (no detail/ folders), playtest/gtest.hpp among them
#   include/playtest/adapter_kit.hpp  the C++ adapter kit (adapters/cpp), target playtest::adapter_kit
#   <libdir>/libplaytest_*.a       one static library per area
#   <libdir>/cmake/playtest/       playtestConfig.cmake, playtestConfigVersion.cmake, the targets:
#                                  playtest::playtest (everything) and playtest::<area>
#   <libdir>/pkgconfig/playtest.pc
#   lib/python3/dist-packages/     the Python adapter kit (every adapters/python/*.py module)
#   share/man/man1/                playtest.1, playtest-<command>.1 and playtest-<command>-<sub>.1
#                                  (gen random), made from --help by help2man
#   share/bash-completion/completions/playtest
#   share/doc/playtest/            README.md, docs/adapter-protocol.md, docs/testing.md
# and the .deb of all of it (CPack, scripts/package.sh). tests/package tests each part.

# Libraries where Debian puts them: lib/<multiarch triplet> (GNUInstallDirs does so only for the
# prefix /usr; the .deb is made from an install to any prefix, CPack's staging area).
if(CMAKE_LIBRARY_ARCHITECTURE AND NOT DEFINED CACHE{CMAKE_INSTALL_LIBDIR})
  set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}" CACHE PATH "Object code libraries (lib/<triplet>)")
endif()
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(PLAYTEST_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/playtest" CACHE PATH "Where playtestConfig.cmake goes")
# Debian's place for modules of every Python 3 version (python3's sys.path has /usr/lib/python3/dist-packages).
set(PLAYTEST_INSTALL_PYTHONDIR "lib/python3/dist-packages" CACHE PATH "Where the Python adapter kit goes")

# The tool.
install(TARGETS playtest RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT playtest)

# The library: the public headers and the areas' static libraries.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/playtest DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT playtest
        FILES_MATCHING PATTERN "*.hpp" PATTERN "detail" EXCLUDE)
foreach(t ${PLAYTEST_AREA_TARGETS})
  target_include_directories(${t} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# The C++ adapter kit: one header, C++17 and POSIX only, included as "playtest/adapter_kit.hpp" from
# the prefix's include/ as from adapters/cpp in the build tree (target playtest_adapter_kit,
# examples/sut/CMakeLists.txt), so the examples' adapters are written as a user's.
add_library(playtest_installed_adapter_kit INTERFACE)
target_include_directories(playtest_installed_adapter_kit INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(playtest_installed_adapter_kit INTERFACE Threads::Threads)
set_target_properties(playtest_installed_adapter_kit PROPERTIES EXPORT_NAME adapter_kit)
install(FILES ${PROJECT_SOURCE_DIR}/adapters/cpp/playtest/adapter_kit.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/playtest
        COMPONENT playtest)

install(TARGETS ${PLAYTEST_AREA_TARGETS} playtest_core playtest_lemon playtest_installed_adapter_kit EXPORT playtestTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT playtest)
install(EXPORT playtestTargets NAMESPACE playtest:: DESTINATION ${PLAYTEST_INSTALL_CMAKEDIR} COMPONENT playtest)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/playtestConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cmake/playtestConfig.cmake
                              INSTALL_DESTINATION ${PLAYTEST_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the interface, so 0.1 accepts 0.1.* only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/playtestConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/playtestConfig.cmake ${PROJECT_BINARY_DIR}/cmake/playtestConfigVersion.cmake
        DESTINATION ${PLAYTEST_INSTALL_CMAKEDIR} COMPONENT playtest)

# pkg-config: the prefix is found from the file's own place (${pcfiledir}), so the file is right in
# any prefix (a test's temporary one, the .deb's /usr). The areas in link order (users first).
file(RELATIVE_PATH PLAYTEST_PC_TO_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
string(REGEX REPLACE "/$" "" PLAYTEST_PC_TO_PREFIX "${PLAYTEST_PC_TO_PREFIX}")
set(PLAYTEST_PC_LIBS "")
foreach(area session input diagnose report campaign catalog adapt run lang explore plan ioco cover solve io strategy graph base)
  if(NOT TARGET playtest_${area})
    message(FATAL_ERROR "cmake/PlaytestInstall.cmake: no area '${area}' for playtest.pc: update its list")
  endif()
  string(APPEND PLAYTEST_PC_LIBS " -lplaytest_${area}")
endforeach()
foreach(t ${PLAYTEST_AREA_TARGETS})
  string(REGEX REPLACE "^playtest_" "" area ${t})
  if(NOT PLAYTEST_PC_LIBS MATCHES " -lplaytest_${area}( |$)")
    message(FATAL_ERROR "cmake/PlaytestInstall.cmake: area '${area}' is missing from playtest.pc's list")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/playtest.pc.in ${PROJECT_BINARY_DIR}/cmake/playtest.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/playtest.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT playtest)

# The Python adapter kit: every module of adapters/python (the folder is read at install time, so a
# new module is installed without a change here), not the packaging's setup.py.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/adapters/python/ DESTINATION ${PLAYTEST_INSTALL_PYTHONDIR} COMPONENT playtest
        FILES_MATCHING PATTERN "*.py" PATTERN "setup.py" EXCLUDE PATTERN "__pycache__" EXCLUDE
        PATTERN "build" EXCLUDE PATTERN "*.egg-info" EXCLUDE)

# Man pages: one per command, made from the built tool's --help by help2man at build time (so they
# cannot fall behind the tool; tests/package/check_man_pages.py checks them against --help).
find_program(PLAYTEST_HELP2MAN help2man)
find_package(Python3 COMPONENTS Interpreter)
if(PLAYTEST_HELP2MAN AND Python3_Interpreter_FOUND)
  add_custom_command(
    OUTPUT ${PROJECT_BINARY_DIR}/man/man.stamp
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/make_man_pages.py --playtest $<TARGET_FILE:playtest>
            --help2man ${PLAYTEST_HELP2MAN} --out ${PROJECT_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E touch ${PROJECT_BINARY_DIR}/man/man.stamp
    DEPENDS playtest ${CMAKE_CURRENT_LIST_DIR}/make_man_pages.py
    COMMENT "Man pages from playtest --help (help2man)")
  add_custom_target(playtest_man ALL DEPENDS ${PROJECT_BINARY_DIR}/man/man.stamp)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT playtest
          FILES_MATCHING PATTERN "*.1.gz")
else()
  message(STATUS "help2man or python3 not found: no man pages (scripts/setup.sh installs help2man)")
endif()

# Bash completion: commands and options read from the tool's --help when TAB is pressed, strategy
# names from `run --help`.
install(FILES ${CMAKE_CURRENT_LIST_DIR}/playtest-completion.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME playtest COMPONENT playtest)

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/adapter-protocol.md
              ${PROJECT_SOURCE_DIR}/docs/testing.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT playtest)

# The .deb (cpack -G DEB in the build directory; scripts/package.sh). dpkg-shlibdeps declares the
# shared libraries the binary needs; the static libraries' own dependencies (the -dev packages a
# user of the library needs) are declared by hand, from the find_dependency list of
# playtestConfig.cmake.
set(CPACK_PACKAGE_NAME playtest)
set(CPACK_PACKAGE_VENDOR "playtest")
set(CPACK_PACKAGE_CONTACT "playtest developers <playtest@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "test nondeterministic systems by playing a game against them")
set(CPACK_PACKAGE_DESCRIPTION
    "playtest computes a tester's best strategy from a model (a test graph of active and passive vertices), plays it against the real system through an adapter, judges every observation against the model and reports a verdict. The package holds the command-line tool, the C++ library with its headers, CMake config and pkg-config file, a GoogleTest integration header, the adapter kits for C++ and Python, man pages and bash completion.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The library's users compile and link against these (playtestConfig.cmake's find_dependency).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "nlohmann-json3-dev (>= 3.10), libfmt-dev, liblemon-dev, libeigen3-dev, coinor-libclp-dev, libgmp-dev, libexpat1-dev, pkg-config, python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "graphviz, libgtest-dev, bash-completion")
# gzip: a few seconds for the test that builds the package, where xz takes a minute on the static libraries.
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)

if(PLAYTEST_TESTS)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tests/package ${PROJECT_BINARY_DIR}/tests/package)
endif()
