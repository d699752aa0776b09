// The C entry points of the alias flow computation.
#include "runtime/exception_status.hpp"

#include <rankmap.h>
#include <rankmap/balance/alias_flow.hpp>

#include <cstddef>
#include <span>

namespace {

int alias_flow_status(int nbins, const long long counts[], const int order[], int sender[], long long amount[]) {
  if (nbins < 0 || (nbins > 0 && (counts == nullptr || sender == nullptr || amount == nullptr)))
    return RANKMAP_ERR_ARG;
  try {
    const auto n = static_cast<std::size_t>(nbins);
    std::span<const int> order_span;
    if (order != nullptr) order_span = {order, n};
    rankmap::balance::alias_flow_into({counts, n}, order_span, {sender, n}, {amount, n});
    return RANKMAP_SUCCESS;
  } catch (...) {
    return rankmap::runtime::status_of_current_exception(RANKMAP_ERR_ARG);
  }
}

}  // namespace

extern "C" RANKMAP_EXPORT int rankmap_alias_flow(int nbins, const long long counts[], int sender[],
                                                 long long amount[]) {
  return alias_flow_status(nbins, counts, nullptr, sender, amount);
}

extern "C" RANKMAP_EXPORT int rankmap_alias_flow_ordered(int nbins, const long long counts[], const int order[],
                                                         int sender[], long long amount[]) {
  return alias_flow_status(nbins, counts, order, sender, amount);
}
