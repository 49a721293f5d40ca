// SPDX-License-Identifier: MIT
#include "budget/device_profile.h"

#include "graph/error.h"
#include "io/file_text.h"
#include "io/json_syntax_check.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>

namespace remat {
namespace {

using Value = rapidjson::Value;

double rateFor(const std::map<Dtype, double>& rates, Dtype dtype)
{
    if (const auto it = rates.find(dtype); it != rates.end())
        return it->second;
    return rates.at(Dtype::Float32); // the reader guarantees a float32 entry
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

class ProfileReader {
public:
    explicit ProfileReader(std::string path)
        : m_path(std::move(path))
    { }

    std::vector<DeviceProfile> read(const std::string& text) const
    {
        // Checked first: the DOM below parses and frees recursively, unsafe for deep nesting.
        if (const auto syntax = findJsonSyntaxError(text))
            throw Error(m_path + ":" + *syntax);
        rapidjson::Document doc;
        doc.Parse(text.c_str(), text.size());
        if (!doc.IsObject() || !doc.HasMember("devices") || !doc["devices"].IsArray())
            throw Error(m_path + ": expected an object with a \"devices\" list");
        std::vector<DeviceProfile> profiles;
        for (const Value& entry : doc["devices"].GetArray()) {
            DeviceProfile profile = readDevice(entry, profiles.size());
            for (const auto& other : profiles) {
                if (equalsIgnoringCase(other.name, profile.name))
                    throw Error(m_path + ": device \"" + profile.name + "\" is listed twice");
            }
            profiles.push_back(std::move(profile));
        }
        if (profiles.empty())
            throw Error(m_path + ": the \"devices\" list is empty");
        return profiles;
    }

private:
    [[noreturn]] void fail(const std::string& where, const std::string& what) const
    {
        throw Error(m_path + ": " + where + ": " + what);
    }

    DeviceProfile readDevice(const Value& entry, std::size_t index) const
    {
        std::string where = "devices[" + std::to_string(index) + "]";
        if (!entry.IsObject())
            fail(where, "expected an object");
        if (!entry.HasMember("name") || !entry["name"].IsString() || entry["name"].GetStringLength() == 0)
            fail(where, "needs a non-empty \"name\"");
        DeviceProfile profile;
        profile.name = entry["name"].GetString();
        where = "device \"" + profile.name + "\"";
        if (entry.HasMember("description") && entry["description"].IsString())
            profile.description = entry["description"].GetString();
        profile.memoryBandwidth = positive(entry, "memory_bandwidth_gb_per_s", where) * 1e9;
        if (entry.HasMember("host_link_gb_per_s"))
            profile.hostLinkBandwidth = positive(entry, "host_link_gb_per_s", where) * 1e9;
        profile.matmulFlops = rates(entry, "matmul_tflops", where);
        profile.vectorFlops = rates(entry, "vector_tflops", where);
        return profile;
    }

    double positive(const Value& object, const char* key, const std::string& where) const
    {
        // Below 1e290 so that the rate in bytes or FLOP per second stays finite.
        if (!object.HasMember(key) || !object[key].IsNumber() || !(object[key].GetDouble() > 0)
            || !(object[key].GetDouble() < 1e290))
            fail(where, std::string("needs a positive number \"") + key + "\" below 1e290");
        return object[key].GetDouble();
    }

    std::map<Dtype, double> rates(const Value& entry, const char* key, const std::string& where) const
    {
        if (!entry.HasMember(key) || !entry[key].IsObject())
            fail(where, std::string("needs \"") + key + "\": {dtype: TFLOP/s, ...}");
        std::map<Dtype, double> out;
        for (auto it = entry[key].MemberBegin(); it != entry[key].MemberEnd(); ++it) {
            const std::string dtypeName = it->name.GetString();
            const auto dtype = parseDtype(dtypeName);
            if (!dtype)
                fail(where, std::string(key) + ": unknown dtype \"" + dtypeName + "\"");
            if (!it->value.IsNumber() || !(it->value.GetDouble() > 0) || !(it->value.GetDouble() < 1e290))
                fail(where,
                    std::string(key) + "." + dtypeName
                        + ": expected a positive number of TFLOP/s below 1e290");
            out[*dtype] = it->value.GetDouble() * 1e12;
        }
        if (!out.contains(Dtype::Float32))
            fail(where, std::string(key) + " needs a \"float32\" entry (the fallback for unlisted dtypes)");
        return out;
    }

    std::string m_path;
};

} // namespace

double DeviceProfile::matmulRate(Dtype dtype) const
{
    return rateFor(matmulFlops, dtype);
}

double DeviceProfile::vectorRate(Dtype dtype) const
{
    return rateFor(vectorFlops, dtype);
}

double offloadTransferSeconds(std::int64_t offloadedBytes, const DeviceProfile& device)
{
    return 2.0 * static_cast<double>(offloadedBytes) / device.hostLinkBandwidth;
}

std::vector<DeviceProfile> readDeviceProfiles(const std::string& path)
{
    return ProfileReader(path).read(readFileText(path));
}

std::vector<DeviceProfile> readDeviceProfilesText(const std::string& text, const std::string& path)
{
    return ProfileReader(path).read(text);
}

const DeviceProfile& findDeviceProfile(const std::vector<DeviceProfile>& profiles, std::string_view name)
{
    for (const auto& profile : profiles) {
        if (equalsIgnoringCase(profile.name, name))
            return profile;
    }
    std::string known;
    for (const auto& profile : profiles)
        known += (known.empty() ? "" : ", ") + profile.name;
    throw Error("unknown device \"" + std::string(name) + "\" (known: " + known + ")");
}

} // namespace remat
