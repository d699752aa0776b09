# Helpers that register tests with CTest, one entry per test case for unit
# tests and one entry per (program, rank count) for MPI tests.
include(GoogleTest)

# rankmap_add_unit_test(NAME SOURCES... [LIBS ...])
function(rankmap_add_unit_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} rankmap_test_support GTest::gtest GTest::gtest_main GTest::gmock)
  gtest_discover_tests(${name}
    TEST_PREFIX "unit."
    PROPERTIES LABELS unit
    DISCOVERY_TIMEOUT 60)
endfunction()

# rankmap_add_mpi_test(NAME RANKS <n...> SOURCES... [LIBS ...] [ENV ...] [TIMEOUT s])
# Registers NAME.np<n>.<mpi> for every rank count, launched oversubscribed.
function(rankmap_add_mpi_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "RANKS;SOURCES;LIBS;ENV" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 180)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest MPI::MPI_CXX)
  foreach(np IN LISTS ARG_RANKS)
    rankmap_add_mpi_command_test(${name}.np${np} RANKS ${np} TIMEOUT ${ARG_TIMEOUT} ENV ${ARG_ENV}
      COMMAND $<TARGET_FILE:${name}>)
  endforeach()
endfunction()

# rankmap_add_mpi_command_test(TESTNAME RANKS n COMMAND cmd... [ENV ...] [TIMEOUT s] [PASS_REGEX re]
#                              [WRAPPER cmd...])
# Runs an arbitrary command under mpiexec; ENV entries are VAR=value pairs passed to every rank.
# WRAPPER, if given, is a command line the mpiexec line is appended to (a checker of its output).
function(rankmap_add_mpi_command_test testname)
  cmake_parse_arguments(ARG "" "RANKS;TIMEOUT;PASS_REGEX" "COMMAND;ENV;WRAPPER" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 180)
  endif()
  set(env_flags)
  foreach(kv IN LISTS ARG_ENV)
    string(REPLACE "=" ";" kv_list "${kv}")
    list(GET kv_list 0 var)
    string(LENGTH "${var}=" prefix_len)
    string(SUBSTRING "${kv}" ${prefix_len} -1 value)
    if(RANKMAP_MPI STREQUAL "openmpi")
      list(APPEND env_flags -x "${var}=${value}")
    else()
      list(APPEND env_flags -genv "${var}" "${value}")
    endif()
  endforeach()
  add_test(NAME mpi.${testname}.${RANKMAP_MPI}
    COMMAND ${ARG_WRAPPER} ${MPIEXEC_EXECUTABLE} ${RANKMAP_MPIEXEC_FLAGS} -n ${ARG_RANKS} ${env_flags} ${ARG_COMMAND})
  set_tests_properties(mpi.${testname}.${RANKMAP_MPI} PROPERTIES
    LABELS "mpi;${RANKMAP_MPI}" TIMEOUT ${ARG_TIMEOUT} PROCESSORS 2)
  if(ARG_PASS_REGEX)
    set_tests_properties(mpi.${testname}.${RANKMAP_MPI} PROPERTIES PASS_REGULAR_EXPRESSION "${ARG_PASS_REGEX}")
  endif()
endfunction()
