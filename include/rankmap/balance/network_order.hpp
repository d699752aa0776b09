// The topology-aware alias flow: bins (slots) taken in the Hilbert order of their nodes, and what a migration costs on the network.
#pragma once

#include <rankmap/balance/alias_flow.hpp>
#include <rankmap/topology/allocation.hpp>

#include <span>

namespace rankmap::balance {

/// The alias flow for bins that are the slots of `alloc` (bin s is slot s), taken in the
/// Hilbert order of their nodes (mapping::hilbert_slot_order), so that surplus and deficit
/// partners tend to sit close on the network. Throws InputError unless there is one count
/// per slot.
AliasFlow alias_flow_hilbert(std::span<const long long> counts, const topology::Allocation& alloc);

/// The hop-bytes of carrying out `flow` on `alloc`: the sum over receiving bins i of
/// amount[i] * task_bytes * hops(node of slot sender[i], node of slot i); 0 within a node.
/// Throws InputError if the flow does not have one entry per slot.
double migration_hop_bytes(const AliasFlow& flow, const topology::Allocation& alloc, double task_bytes);

}  // namespace rankmap::balance
