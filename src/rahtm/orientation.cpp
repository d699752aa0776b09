// Enumeration of box symmetries and the cell permutations they induce.
#include "orientation.hpp"

#include <algorithm>

namespace rankmap::rahtm {

namespace {

struct DimType {
  int len;
  bool whole_ring;
  double capacity;
  bool operator==(const DimType&) const = default;
};

}  // namespace

std::vector<Orientation> box_orientations(const Box& box, const topology::Grid& grid, std::size_t limit) {
  const int ndims = grid.ndims();
  std::vector<int> moving;  // dimensions longer than 1
  std::vector<DimType> type(ndims);
  for (int d = 0; d < ndims; ++d) {
    type[d] = {box.len[d], grid.is_torus(d) && box.len[d] == grid.extent(d), grid.capacity(d)};
    if (box.len[d] > 1) moving.push_back(d);
  }
  std::vector<Orientation> result;
  std::vector<int> image = moving;  // moving[j] goes to image[j]; starts at the identity
  do {
    bool keeps_types = true;
    for (std::size_t j = 0; j < moving.size(); ++j) keeps_types = keeps_types && type[moving[j]] == type[image[j]];
    if (!keeps_types) continue;
    Orientation o;
    for (int d = 0; d < ndims; ++d) o.perm[d] = static_cast<std::int8_t>(d);
    for (std::size_t j = 0; j < moving.size(); ++j) o.perm[moving[j]] = static_cast<std::int8_t>(image[j]);
    for (std::uint32_t mask = 0; mask < (1u << moving.size()); ++mask) {
      if (result.size() >= limit) return result;
      o.flip = 0;
      for (std::size_t j = 0; j < moving.size(); ++j)
        if (mask >> j & 1) o.flip |= 1u << moving[j];
      result.push_back(o);
    }
  } while (std::next_permutation(image.begin(), image.end()));
  return result;
}

int cell_of(const Box& box, int ndims, const topology::Coords& coords) {
  int cell = 0;
  for (int d = 0; d < ndims; ++d) cell = cell * box.len[d] + (coords[d] - box.lo[d]);
  return cell;
}

topology::Coords coords_of_cell(const Box& box, int ndims, int cell) {
  topology::Coords c{};
  for (int d = ndims - 1; d >= 0; --d) {
    c[d] = box.lo[d] + cell % box.len[d];
    cell /= box.len[d];
  }
  return c;
}

std::vector<int> cell_permutation(const Box& box, int ndims, const Orientation& o) {
  const int cells = static_cast<int>(box_volume(box, ndims));
  std::vector<int> image(cells);
  for (int cell = 0; cell < cells; ++cell) {
    const topology::Coords c = coords_of_cell(box, ndims, cell);
    topology::Coords q = box.lo;
    for (int d = 0; d < ndims; ++d) {
      const int p = c[d] - box.lo[d];
      q[o.perm[d]] = box.lo[o.perm[d]] + ((o.flip >> d & 1) ? box.len[d] - 1 - p : p);
    }
    image[cell] = cell_of(box, ndims, q);
  }
  return image;
}

}  // namespace rankmap::rahtm
