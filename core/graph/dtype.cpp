// SPDX-License-Identifier: MIT
#include "graph/dtype.h"

#include <array>

namespace remat {
namespace {

struct DtypeInfo {
    Dtype dtype;
    std::string_view name;
    int itemSize;
};

constexpr std::array kDtypes {
    DtypeInfo {Dtype::Float32, "float32", 4},
    DtypeInfo {Dtype::Float64, "float64", 8},
    DtypeInfo {Dtype::Float16, "float16", 2},
    DtypeInfo {Dtype::BFloat16, "bfloat16", 2},
    DtypeInfo {Dtype::Float8E4M3Fn, "float8_e4m3fn", 1},
    DtypeInfo {Dtype::Float8E4M3FnUz, "float8_e4m3fnuz", 1},
    DtypeInfo {Dtype::Float8E5M2, "float8_e5m2", 1},
    DtypeInfo {Dtype::Float8E5M2FnUz, "float8_e5m2fnuz", 1},
    DtypeInfo {Dtype::Float8E8M0FnU, "float8_e8m0fnu", 1},
    DtypeInfo {Dtype::Complex32, "complex32", 4},
    DtypeInfo {Dtype::Complex64, "complex64", 8},
    DtypeInfo {Dtype::Complex128, "complex128", 16},
    DtypeInfo {Dtype::UInt8, "uint8", 1},
    DtypeInfo {Dtype::UInt16, "uint16", 2},
    DtypeInfo {Dtype::UInt32, "uint32", 4},
    DtypeInfo {Dtype::UInt64, "uint64", 8},
    DtypeInfo {Dtype::Int8, "int8", 1},
    DtypeInfo {Dtype::Int16, "int16", 2},
    DtypeInfo {Dtype::Int32, "int32", 4},
    DtypeInfo {Dtype::Int64, "int64", 8},
    DtypeInfo {Dtype::Bool, "bool", 1},
    DtypeInfo {Dtype::QInt8, "qint8", 1},
    DtypeInfo {Dtype::QUInt8, "quint8", 1},
    DtypeInfo {Dtype::QInt32, "qint32", 4},
    DtypeInfo {Dtype::QUInt4x2, "quint4x2", 1},
    DtypeInfo {Dtype::QUInt2x4, "quint2x4", 1},
    DtypeInfo {Dtype::Bits8, "bits8", 1},
};

constexpr bool tableFollowsEnumOrder()
{
    for (std::size_t i = 0; i < kDtypes.size(); ++i) {
        if (static_cast<std::size_t>(kDtypes[i].dtype) != i)
            return false;
    }
    return true;
}
static_assert(tableFollowsEnumOrder(), "kDtypes must be indexed by Dtype");

// Aliases PyTorch accepts as dtype names ("torch.float" is float32, and so on).
struct DtypeAlias {
    std::string_view alias;
    Dtype dtype;
};
constexpr std::array kAliases {
    DtypeAlias {"float", Dtype::Float32},
    DtypeAlias {"double", Dtype::Float64},
    DtypeAlias {"half", Dtype::Float16},
    DtypeAlias {"cfloat", Dtype::Complex64},
    DtypeAlias {"cdouble", Dtype::Complex128},
    DtypeAlias {"chalf", Dtype::Complex32},
    DtypeAlias {"short", Dtype::Int16},
    DtypeAlias {"int", Dtype::Int32},
    DtypeAlias {"long", Dtype::Int64},
};

} // namespace

std::optional<Dtype> parseDtype(std::string_view name)
{
    if (name.starts_with("torch."))
        name.remove_prefix(6);
    for (const auto& info : kDtypes) {
        if (info.name == name)
            return info.dtype;
    }
    for (const auto& alias : kAliases) {
        if (alias.alias == name)
            return alias.dtype;
    }
    return std::nullopt;
}

std::string_view dtypeName(Dtype dtype)
{
    return kDtypes[static_cast<std::size_t>(dtype)].name;
}

int dtypeItemSize(Dtype dtype)
{
    return kDtypes[static_cast<std::size_t>(dtype)].itemSize;
}

bool dtypeKnownToTorch113(Dtype dtype)
{
    switch (dtype) {
    case Dtype::Float32:
    case Dtype::Float16:
    case Dtype::BFloat16:
    case Dtype::Float64:
    case Dtype::Int8:
    case Dtype::Int16:
    case Dtype::Int32:
    case Dtype::Int64:
    case Dtype::UInt8:
    case Dtype::Bool:
        return true;
    default:
        return false;
    }
}

} // namespace remat
