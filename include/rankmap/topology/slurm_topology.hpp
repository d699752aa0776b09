// Slurm's topology/tree description (topology.conf, or `scontrol show topology`) as a SimGrid fat-tree.
#pragma once

#include <rankmap/topology/network.hpp>

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::topology {

/// One switch line.
struct SlurmSwitch {
  std::string name;
  std::vector<std::string> switches;  ///< child switches, hostlists expanded, in file order
  std::vector<std::string> nodes;     ///< child nodes, hostlists expanded, in file order
  int line = 0;                       ///< 1-based line in the source
};

/// Every switch line of a topology.conf or of `scontrol show topology` output.
struct SlurmTopology {
  std::vector<SlurmSwitch> switches;
};

/// Parses lines of `key=value` words separated by blanks, keys case-insensitive, `#` to the end
/// of a line a comment (docs/formats.md quotes topology.conf(5) and scontrol's output):
///
///     SwitchName=s0 Nodes=nid[001-032,040] LinkSpeed=100
///     SwitchName=top Switches=s[0-1]
///     SwitchName=s0 Level=0 LinkSpeed=1 Nodes=nid[001-032,040]      (scontrol show topology)
///
/// Every line needs SwitchName and Nodes or Switches, not both; LinkSpeed and Level must be
/// non-negative integers (rankmap does not use them). Throws InputError naming `source` and the
/// line for an unknown key (also topology/block's BlockName), a repeated key, a repeated switch,
/// a bad hostlist, or more than 2^20 names in all.
SlurmTopology parse_slurm_topology(std::istream& in, std::string_view source);
SlurmTopology read_slurm_topology(const std::string& path);

/// The tree as a fat-tree with one parent per element, and each named node's place in it.
struct SlurmTree {
  Network network;                 ///< fattree:L;d1,...,dL;1,...,1;1,...,1
  std::vector<std::string> hosts;  ///< hosts[i] is the host of network node nodes[i]
  std::vector<NodeId> nodes;       ///< in file order of the leaf switches, then of their Nodes=
};

/// Builds the tree: the switches no line names as a child are its roots (several roots are
/// joined under one more level, as a job spanning them would cross the fabric's top); level 1
/// holds the leaf switches and d_l is the largest fan-out at level l; a node's place is its
/// index under its leaf switch, a switch's its index under its parent (padding the rest, unused
/// positions are simply never allocated). Throws InputError naming `source` and the line for a
/// child switch that no line defines, a switch or node under two parents, a cycle, a switch with
/// both nodes and switches, leaf switches at different depths, or a tree deeper than 8 levels.
SlurmTree slurm_tree(const SlurmTopology& topology, std::string_view source);

}  // namespace rankmap::topology
