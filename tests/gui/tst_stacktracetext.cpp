// SPDX-License-Identifier: MIT
// The inspector's "Stack" row: Dynamo records where each op came from as a Python frame with the
// whole site-packages path, which wrapped into eight lines of a narrow panel.
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "model/stack_trace_text.h"

#include <QTest>

using namespace remat;
using namespace remat::ui;

class TestStackTraceText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void framesAreShortAndCodeStays()
    {
        QCOMPARE(stackTraceHtml(
                     "File \"/usr/lib/python3/dist-packages/transformers/models/bert/modeling_bert.py\", "
                     "line 481, in forward\n    hidden_states = self.dense(hidden_states)"),
            QStringLiteral("bert/modeling_bert.py:481 in forward<br><code>hidden_states = "
                           "self.dense(hidden_states)</code>"));
        // Several frames, a file with no folder, and text that must be escaped.
        QCOMPARE(stackTraceHtml("  File \"model.py\", line 3, in <module>\n    y = a < b\n"
                                "  File \"/x/y/z.py\", line 12, in f\n    return y\n"),
            QStringLiteral("model.py:3 in &lt;module&gt;<br><code>y = a &lt; b</code><br>y/z.py:12 in f<br>"
                           "<code>return y</code>"));
        QCOMPARE(stackTraceHtml(""), QString());
        QCOMPARE(stackTraceHtml("not a frame"), QStringLiteral("<code>not a frame</code>"));
    }

    /// Every stack a real torch-2.14 graph records reads as frames, none as a raw path.
    void realStacksReadAsFrames()
    {
        const auto path = test::oraclePath("torch2/hf_bert_mlm_train.json");
        const JointGraph graph = loadGraphFile(path.toStdString());
        int stacks = 0;
        for (NodeId n = 0; n < static_cast<NodeId>(graph.size()); ++n) {
            const std::string& trace = graph.node(n).meta.source->stackTrace;
            if (trace.empty())
                continue;
            ++stacks;
            const QString html = stackTraceHtml(trace);
            QVERIFY2(!html.contains(QStringLiteral("dist-packages")) && html.contains(QStringLiteral(".py:")),
                qPrintable(html));
        }
        QVERIFY2(stacks > 100, qPrintable(QString::number(stacks)));
    }
};

QTEST_MAIN(TestStackTraceText)
#include "tst_stacktracetext.moc"
