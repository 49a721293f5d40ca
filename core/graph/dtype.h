// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace remat {

/// Every PyTorch dtype a joint graph may carry, by its `str(dtype)` name without "torch.".
enum class Dtype : std::uint8_t {
    Float32,
    Float64,
    Float16,
    BFloat16,
    Float8E4M3Fn,
    Float8E4M3FnUz,
    Float8E5M2,
    Float8E5M2FnUz,
    Float8E8M0FnU,
    Complex32,
    Complex64,
    Complex128,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Int8,
    Int16,
    Int32,
    Int64,
    Bool,
    QInt8,
    QUInt8,
    QInt32,
    QUInt4x2,
    QUInt2x4,
    Bits8,
};

std::optional<Dtype> parseDtype(std::string_view name);
std::string_view dtypeName(Dtype dtype);

/// Bytes per element (`dtype.itemsize`); sub-byte packed types round up to one byte.
int dtypeItemSize(Dtype dtype);

/// torch 1.13's `_size_of` knows only ten dtypes and raises for the others.
bool dtypeKnownToTorch113(Dtype dtype);

} // namespace remat
