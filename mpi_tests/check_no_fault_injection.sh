#!/bin/sh
# check_no_fault_injection.sh INSTALLED_LIB... -- TEST_VARIANT_LIB...
# The installed libraries must carry none of the fault-injection hooks (no rankmap_test_* symbol,
# no "injected fault" text); the test variants must carry both, which shows the check can see them.
has_hooks() {
  nm -D --defined-only "$1" | grep -q ' rankmap_test_fault_arm$' && grep -q 'injected fault at step' "$1"
}
status=0
variants=0
for lib in "$@"; do
  if [ "$lib" = "--" ]; then variants=1; continue; fi
  if [ $variants = 0 ] && has_hooks "$lib"; then echo "$lib: has the fault-injection hooks"; status=1; fi
  if [ $variants = 0 ] && nm "$lib" | grep -q 'rankmap_test_'; then echo "$lib: has a rankmap_test_ symbol"; status=1; fi
  if [ $variants = 1 ] && ! has_hooks "$lib"; then echo "$lib: lacks the fault-injection hooks"; status=1; fi
done
[ $status = 0 ] && echo "OK"
exit $status
