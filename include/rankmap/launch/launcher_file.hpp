// Launcher placement files (DESIGN.md §8): where each rank of a mapping starts, in the syntax of each launcher.
#pragma once

#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/allocation.hpp>

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::launch {

enum class LauncherFormat {
  openmpi_rankfile,  ///< `rank <t>=<host> slot=<k>`: `mpiexec --rankfile F`
  mpich_hostfile,    ///< one host per line, line t for rank t: `mpiexec -f F` (Hydra)
  slurm_hostfile,    ///< one host per line: `SLURM_HOSTFILE=F srun --distribution=arbitrary`
  bgq_mapfile,       ///< `A B C D E T` per line: `runjob --mapping F`
  smpi_hostfile,     ///< one SimGrid host per line: `smpirun -hostfile F`
};

/// The format named `name` (the spellings of `rankmap emit --format`); throws InputError naming
/// `--format` and the known names otherwise.
LauncherFormat parse_launcher_format(std::string_view name);
std::string_view format_name(LauncherFormat format);
/// "openmpi-rankfile, mpich-hostfile, ..." for help and error texts.
std::string launcher_format_names();
/// False for the BG/Q map file, which gives coordinates instead of host names.
bool needs_host_names(LauncherFormat format);

/// The allocation `mapping` was computed for: the first `mapping.tasks` slots of `whole`.
/// Throws InputError naming `source` when the allocation has fewer slots or its hash differs.
topology::Allocation allocation_of_mapping(const mapping::MappingFile& mapping, const topology::Allocation& whole,
                                           std::string_view source);

/// One host name per line (`#` comments and blank lines skipped), for `--hosts`. Throws InputError
/// naming `source` and the line for a name with blanks in it, or `source` for a file without names.
std::vector<std::string> parse_host_list(std::istream& in, std::string_view source);
std::vector<std::string> read_host_list(const std::string& path);

/// SimGrid's `TORUS` cluster number of `node`, dimension 0 fastest: c0 + k0*(c1 + k1*(c2 + ...)),
/// the reverse of rankmap's row-major node ids.
std::int64_t simgrid_torus_id(const topology::Grid& grid, NodeId node);
/// `<prefix><SimGrid id>` for every allocated node, in node order: the names of the hosts of a
/// SimGrid cluster with that prefix and radicals 0..N-1. On a grid the id is the TORUS cluster's
/// (bench/smpi/hostfile.py --topology uses the same names), and every dimension must be a torus
/// (else InputError); on a fat-tree or dragonfly it is the node id, which is SimGrid's FAT_TREE or
/// DRAGONFLY host order.
std::vector<std::string> simgrid_host_names(const topology::Allocation& alloc, std::string_view prefix);

/// Writes the file that starts task t where `slot_of[t]` lies: host `hosts[i]` for the slots of
/// allocated node i (hosts is unused by bgq-mapfile), and the slot's position among its node's slots as
/// Open MPI's `slot=` and BG/Q's T. Throws InputError when `hosts` does not give one name per
/// node, or, for bgq-mapfile, when the grid does not have the 5 dimensions A..E.
void write_launcher_file(std::ostream& out, LauncherFormat format, const topology::Allocation& alloc,
                         std::span<const SlotId> slot_of, std::span<const std::string> hosts);
void write_launcher_file(const std::string& path, LauncherFormat format, const topology::Allocation& alloc,
                         std::span<const SlotId> slot_of, std::span<const std::string> hosts);

}  // namespace rankmap::launch
