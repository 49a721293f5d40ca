// SPDX-License-Identifier: MIT
// Runtime estimators: PyTorch's FLOP-counter formulas ("flops" mode), "testing", our roofline with
// device profiles, and measured times.
#include "budget/device_profile.h"
#include "budget/flop_counts.h"
#include "budget/runtime_estimator.h"
#include "budget/runtime_text.h"
#include "budget_test_support.h"
#include "graph/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace remat;
using remat::testing::f32;
using remat::testing::graphFromNodes;

namespace {

std::string placeholder(const std::string& name, const std::string& val)
{
    return R"({"name":")" + name + R"(","op":"placeholder","target":")" + name
        + R"(","args":[],"kwargs":{},"val":)" + val + R"(,"meta":{}})";
}

std::string call(const std::string& name, const std::string& target, const std::string& args,
    const std::string& val, const std::string& meta = "{}")
{
    return R"({"name":")" + name + R"(","op":"call_function","target":")" + target + R"(","args":)" + args
        + R"(,"kwargs":{},"val":)" + val + R"(,"meta":)" + meta + "}";
}

std::string node(const char* name)
{
    return std::string(R"({"node":")") + name + R"("})";
}

/// One graph holding every op whose formula is checked (shapes chosen to give distinct counts).
JointGraph opsGraph()
{
    const std::string nodes = "[" + placeholder("a", f32({64, 32})) + "," + placeholder("b", f32({32, 16}))
        + "," + placeholder("bias", f32({16})) + "," + placeholder("p", f32({4, 64, 32})) + ","
        + placeholder("q", f32({4, 32, 8})) + "," + placeholder("x", f32({2, 3, 10, 10})) + ","
        + placeholder("w", f32({6, 3, 3, 3})) + "," + placeholder("h", f32({2, 4, 128, 16})) + ","
        + placeholder("hb", f32({2048, 2048}, "bfloat16")) + ","
        + call("mm", "aten.mm.default", "[" + node("a") + "," + node("b") + "]", f32({64, 16})) + ","
        + call("addmm", "aten.addmm.default", "[" + node("bias") + "," + node("a") + "," + node("b") + "]",
            f32({64, 16}))
        + "," + call("bmm", "aten.bmm.default", "[" + node("p") + "," + node("q") + "]", f32({4, 64, 8}))
        + ","
        + call("conv", "aten.convolution.default",
            "[" + node("x") + "," + node("w") + R"(,null,[1,1],[0,0],[1,1],false,[0,0],1])",
            f32({2, 6, 8, 8}))
        + ","
        + call("conv_bw", "aten.convolution_backward.default",
            "[" + node("conv") + "," + node("x") + "," + node("w")
                + R"(,[6],[1,1],[0,0],[1,1],false,[0,0],1,[true,true,false]])",
            "[" + f32({2, 3, 10, 10}) + "," + f32({6, 3, 3, 3}) + ",null]")
        + ","
        + call("sdpa", "aten._scaled_dot_product_efficient_attention.default",
            "[" + node("h") + "," + node("h") + "," + node("h") + R"(,null,true])",
            "[" + f32({2, 4, 128, 16}) + "," + f32({2, 4, 128}) + "," + f32({}, "int64") + ","
                + f32({}, "int64") + "]")
        + "," + call("cos", "aten.cos.default", "[" + node("mm") + "]", f32({64, 16})) + ","
        + call("hb_mm", "aten.mm.default", "[" + node("hb") + "," + node("hb") + "]",
            f32({2048, 2048}, "bfloat16"))
        + ","
        + call("timed", "aten.cos.default", "[" + node("mm") + "]", f32({64, 16}), R"({"runtime_ms":0.25})")
        + "," + call("v", "aten.view.default", "[" + node("mm") + R"(,[1024]])", f32({1024})) + ","
        + R"({"name":"output","op":"output","target":"output","args":[[)" + node("cos") + "," + node("timed")
        + "," + node("conv_bw") + "," + node("sdpa") + "," + node("addmm") + "," + node("bmm") + ","
        + node("hb_mm") + "," + node("v") + R"(]],"kwargs":{},"val":null,"meta":{}})" + "]";
    return graphFromNodes(nodes, 8, "ops.json");
}

std::string profilesPath()
{
    return REMAT_SOURCE_DIR "/resources/device_profiles.json";
}

} // namespace

class TestRuntimeEstimator : public QObject {
    Q_OBJECT

private slots:
    void flopFormulas_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qlonglong>("flops");
        QTest::addRow("mm 2MKN") << "mm" << qlonglong(2LL * 64 * 32 * 16);
        QTest::addRow("addmm ignores the bias") << "addmm" << qlonglong(2LL * 64 * 32 * 16);
        QTest::addRow("bmm 2BMKN") << "bmm" << qlonglong(2LL * 4 * 64 * 32 * 8);
        // prod(out spatial) * prod(kernel) * batch * c_out * c_in * 2
        QTest::addRow("convolution") << "conv" << qlonglong(64LL * 9 * 2 * 6 * 3 * 2);
        // grad input (a transposed conv) + grad weight: twice the forward for one group
        QTest::addRow("convolution_backward") << "conv_bw" << qlonglong(2 * 64LL * 9 * 2 * 6 * 3 * 2);
        // 2*b*h*s_q*s_k*(d_q + d_v)
        QTest::addRow("efficient attention") << "sdpa" << qlonglong(2LL * 2 * 4 * 128 * 128 * (16 + 16));
    }
    void flopFormulas()
    {
        QFETCH(QString, name);
        QFETCH(qlonglong, flops);
        const JointGraph graph = opsGraph();
        const auto counted = registeredFlops(graph, graph.find(name.toStdString()));
        QVERIFY(counted.has_value());
        QCOMPARE(qlonglong(*counted), flops);
    }

    void unregisteredOpsCountOneInFlopsMode()
    {
        const JointGraph graph = opsGraph();
        QVERIFY(!registeredFlops(graph, graph.find("cos")));
        const RuntimeEstimator flops(graph, RuntimeEstimatorKind::Flops);
        QCOMPARE(flops.cost(graph.find("cos")), 1.0);
        QCOMPARE(flops.cost(graph.find("mm")), 2.0 * 64 * 32 * 16);
        QCOMPARE(flops.unit(), std::string_view("flops"));
        // Measured times are for time estimators only: flops mode stays PyTorch's.
        QCOMPARE(flops.cost(graph.find("timed")), 1.0);
        const RuntimeEstimator testing(graph, RuntimeEstimatorKind::Testing);
        QCOMPARE(testing.cost(graph.find("mm")), 1.0);
        QCOMPARE(testing.cost(graph.find("sdpa")), 1.0);
        // Only the flops mode has a floor, and only ops without a formula sit on it.
        QVERIFY(flops.costsTheFloor(graph.find("cos")));
        QVERIFY(!flops.costsTheFloor(graph.find("mm")));
        QVERIFY(!testing.costsTheFloor(graph.find("cos")));
    }

    void flooredOpsAreNamedInFlopDeltas()
    {
        QCOMPARE(flooredOpsNote(5, "flops"),
            std::string("5 more recomputed ops without a FLOP formula, which PyTorch's flops estimator "
                        "counts as 1 FLOP each"));
        QCOMPARE(flooredOpsNote(-1, "flops"),
            std::string("1 fewer recomputed op without a FLOP formula, which PyTorch's flops estimator "
                        "counts as 1 FLOP each"));
        QCOMPARE(flooredOpsNote(0, "flops"), std::string());
        QCOMPARE(flooredOpsNote(3, "ms"), std::string());
        QCOMPARE(flooredOpsNote(3, "nodes"), std::string());
    }

    void estimatorNames()
    {
        QCOMPARE(parseEstimator("flops"), std::optional(RuntimeEstimatorKind::Flops));
        QCOMPARE(parseEstimator("testing"), std::optional(RuntimeEstimatorKind::Testing));
        QCOMPARE(parseEstimator("roofline"), std::optional(RuntimeEstimatorKind::Roofline));
        QVERIFY(!parseEstimator("profile"));
    }

    void shippedProfilesLoad()
    {
        const auto profiles = readDeviceProfiles(profilesPath());
        QVERIFY(profiles.size() >= 3);
        const auto& h100 = findDeviceProfile(profiles, "h100-sxm"); // case-insensitive
        QCOMPARE(h100.memoryBandwidth, 3350e9);
        QCOMPARE(h100.matmulRate(Dtype::BFloat16), 989.4e12);
        QCOMPARE(h100.matmulRate(Dtype::Float32), 66.9e12);
        QCOMPARE(h100.matmulRate(Dtype::Int64), 66.9e12); // unlisted dtype: the float32 rate
        QVERIFY(findDeviceProfile(profiles, "A100-SXM").memoryBandwidth > 0);
        QVERIFY(findDeviceProfile(profiles, "CPU-16core-AVX512").memoryBandwidth > 0);
    }

    void rooflineIsComputeOrBandwidthBound()
    {
        const JointGraph graph = opsGraph();
        const auto profiles = readDeviceProfiles(profilesPath());
        const auto& h100 = findDeviceProfile(profiles, "H100-SXM");
        const RuntimeEstimator roofline(graph, RuntimeEstimatorKind::Roofline, &h100);
        QCOMPARE(roofline.unit(), std::string_view("ms"));
        // bf16 2048^3 matmul: compute-bound on tensor cores.
        const double hbFlops = 2.0 * 2048 * 2048 * 2048;
        QCOMPARE(roofline.cost(graph.find("hb_mm")), hbFlops / 989.4e12 * 1e3);
        // cos: bandwidth-bound, reads 4 KiB and writes 4 KiB.
        QCOMPARE(roofline.cost(graph.find("cos")), 2.0 * 64 * 16 * 4 / 3350e9 * 1e3);
        // a view runs no kernel
        QCOMPARE(roofline.cost(graph.find("v")), 0.0);
        // a measured time wins over the estimate
        QCOMPARE(roofline.cost(graph.find("timed")), 0.25);
        const auto& cpu = findDeviceProfile(profiles, "CPU-16core-AVX512");
        QVERIFY(rooflineMilliseconds(graph, graph.find("hb_mm"), cpu) > roofline.cost(graph.find("hb_mm")));
    }

    void rooflineNeedsADevice()
    {
        const JointGraph graph = opsGraph();
        QVERIFY_THROWS_EXCEPTION(Error, RuntimeEstimator(graph, RuntimeEstimatorKind::Roofline));
    }

    void badProfileFiles_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("malformed") << R"({"devices": [)"
                                   << "malformed JSON";
        QTest::addRow("no devices") << R"({"x": 1})"
                                    << "\"devices\" list";
        QTest::addRow("no float32")
            << R"({"devices":[{"name":"D","memory_bandwidth_gb_per_s":1,"matmul_tflops":{"bfloat16":1},"vector_tflops":{"float32":1}}]})"
            << "needs a \"float32\" entry";
        QTest::addRow("unknown dtype")
            << R"({"devices":[{"name":"D","memory_bandwidth_gb_per_s":1,"matmul_tflops":{"float33":1},"vector_tflops":{"float32":1}}]})"
            << "unknown dtype \"float33\"";
        QTest::addRow("bandwidth")
            << R"({"devices":[{"name":"D","matmul_tflops":{"float32":1},"vector_tflops":{"float32":1}}]})"
            << "memory_bandwidth_gb_per_s";
        QTest::addRow("twice")
            << R"({"devices":[{"name":"D","memory_bandwidth_gb_per_s":1,"matmul_tflops":{"float32":1},"vector_tflops":{"float32":1}},)"
               R"({"name":"d","memory_bandwidth_gb_per_s":1,"matmul_tflops":{"float32":1},"vector_tflops":{"float32":1}}]})"
            << "listed twice";
    }
    void badProfileFiles()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("profiles.json")).toStdString();
        std::ofstream(path) << text.toStdString();
        try {
            (void)readDeviceProfiles(path);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
            QVERIFY(QString::fromStdString(e.what()).startsWith(QString::fromStdString(path)));
        }
    }

    void unknownDeviceListsTheKnownOnes()
    {
        const auto profiles = readDeviceProfiles(profilesPath());
        try {
            (void)findDeviceProfile(profiles, "TPU");
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY(QString::fromStdString(e.what()).contains("H100-SXM"));
        }
    }
};

QTEST_GUILESS_MAIN(TestRuntimeEstimator)
#include "tst_runtimeestimator.moc"
