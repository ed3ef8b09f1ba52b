// Names and sizes of dtypes and reduce ops (see types.hpp).
#include "distkit/runtime/types.hpp"

namespace distkit::rt {

namespace {
constexpr const char* kDTypeNames[] = {"bool",     "int8",    "int16",   "int32",    "int64",
                                       "uint8",    "uint16",  "uint32",  "uint64",   "float16",
                                       "bfloat16", "float32", "float64", "complex64"};
constexpr size_t kDTypeSizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8};
constexpr const char* kOpNames[] = {"sum", "prod", "max", "min"};
}  // namespace

size_t dtype_size(DType t) noexcept {
  return kDTypeSizes[static_cast<size_t>(t)];
}
const char* dtype_name(DType t) noexcept {
  return kDTypeNames[static_cast<size_t>(t)];
}
const char* reduce_op_name(ReduceOp op) noexcept {
  return kOpNames[static_cast<size_t>(op)];
}

bool parse_dtype(const std::string& name, DType& out) noexcept {
  for (size_t i = 0; i < std::size(kDTypeNames); ++i)
    if (name == kDTypeNames[i]) {
      out = static_cast<DType>(i);
      return true;
    }
  return false;
}

bool parse_reduce_op(const std::string& name, ReduceOp& out) noexcept {
  for (size_t i = 0; i < std::size(kOpNames); ++i)
    if (name == kOpNames[i]) {
      out = static_cast<ReduceOp>(i);
      return true;
    }
  return false;
}

}  // namespace distkit::rt
