// Turns the exception being handled into a C API status code, for the balance entry points.
#pragma once

#include <rankmap.h>
#include <rankmap/types.hpp>

#include <new>

namespace rankmap::balance {

/// Call only inside a catch block.
inline int status_of_current_exception() noexcept {
  try {
    throw;
  } catch (const InputError&) {
    return RANKMAP_ERR_ARG;
  } catch (const std::bad_alloc&) {
    return RANKMAP_ERR_NOMEM;
  } catch (...) {
    return RANKMAP_ERR_INTERNAL;
  }
}

}  // namespace rankmap::balance
