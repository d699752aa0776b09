# The build of scripts/test.sh and scripts/demo.sh, sourced by both so that each reuses the other's
# tree: the optimisation of the project's default RelWithDebInfo (-O2) without its debug information.
# The builds took most of CI's 27 minutes, and without -g three of the heaviest files compiled in
# 0.75 to 0.85 of the time.
build_flags=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG")
