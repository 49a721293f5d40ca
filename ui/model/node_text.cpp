// SPDX-License-Identifier: MIT
#include "model/node_text.h"

#include "analysis/tensor_size.h"

#include <QObject>
#include <QStringList>

namespace remat::ui {

QString symIntsText(std::size_t count)
{
    if (count == 0)
        return {};
    return count == 1 ? QObject::tr(" + 1 SymInt") : QObject::tr(" + %1 SymInts").arg(count);
}

QString rngStatesText(std::size_t count)
{
    if (count == 0)
        return {};
    return count == 1 ? QObject::tr(" + 1 RNG state") : QObject::tr(" + %1 RNG states").arg(count);
}

QString formatBytes(std::int64_t bytes)
{
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    double value = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    while (value >= 1024.0 && unit < 3) {
        value /= 1024.0;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(value, 0, 'f', value < 10 ? 2 : 1).arg(QLatin1String(units[unit]));
}

QString shortDtypeName(Dtype dtype)
{
    switch (dtype) {
    case Dtype::Float32:
        return QStringLiteral("f32");
    case Dtype::Float64:
        return QStringLiteral("f64");
    case Dtype::Float16:
        return QStringLiteral("f16");
    case Dtype::BFloat16:
        return QStringLiteral("bf16");
    case Dtype::Int64:
        return QStringLiteral("i64");
    case Dtype::Int32:
        return QStringLiteral("i32");
    case Dtype::Int16:
        return QStringLiteral("i16");
    case Dtype::Int8:
        return QStringLiteral("i8");
    case Dtype::UInt8:
        return QStringLiteral("u8");
    case Dtype::Bool:
        return QStringLiteral("b8");
    default:
        return QString::fromLatin1(dtypeName(dtype));
    }
}

QString shapeText(const std::vector<std::int64_t>& dims)
{
    QStringList parts;
    parts.reserve(static_cast<qsizetype>(dims.size()));
    for (auto d : dims)
        parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
}

QString valueSummary(const Node& node)
{
    auto one
        = [](const TensorMeta& t) { return shapeText(t.shape) + QLatin1Char(' ') + shortDtypeName(t.dtype); };
    switch (node.valueKind) {
    case ValueKind::None:
        return {};
    case ValueKind::Tensor:
        return one(node.tensor());
    case ValueKind::TensorList: {
        QStringList parts;
        for (const auto& v : node.values)
            parts << (v ? one(*v) : QStringLiteral("–"));
        return QStringLiteral("%1 values: ").arg(node.values.size()) + parts.join(QLatin1String(", "));
    }
    case ValueKind::Symbolic:
        return QStringLiteral("Sym(%1)").arg(QString::fromStdString(node.symbolic->expr));
    }
    return {};
}

QString opLabel(const JointGraph& graph, NodeId n)
{
    const Node& node = graph.node(n);
    switch (node.op) {
    case NodeOp::Placeholder:
        // What the input is in the model says more than "placeholder", when the file names it.
        return node.meta.source->inputName.empty() ? QStringLiteral("placeholder")
                                                   : QString::fromStdString(node.meta.source->inputName);
    case NodeOp::Output:
        return QStringLiteral("output");
    default:
        break;
    }
    const OpInfo& op = graph.opOf(n);
    if (op.isOverload) {
        QString target = QString::fromStdString(op.target);
        if (target.endsWith(QLatin1String(".default")))
            target.chop(8);
        return target;
    }
    if (node.op == NodeOp::CallFunction)
        return QString::fromStdString(op.name.empty() ? op.target : op.name);
    return QString::fromStdString(op.target);
}

namespace {

QString argText(const JointGraph& graph, const Arg& arg, const std::function<QString(NodeId)>& nodeRef)
{
    switch (arg.kind) {
    case ArgKind::None:
        return QStringLiteral("None");
    case ArgKind::Bool:
        return arg.boolean ? QStringLiteral("True") : QStringLiteral("False");
    case ArgKind::Int:
        return QString::number(arg.integer);
    case ArgKind::Float:
        return QString::number(arg.real, 'g', 8);
    case ArgKind::String:
        return QLatin1Char('\'') + QString::fromStdString(graph.string(arg.string)) + QLatin1Char('\'');
    case ArgKind::Repr:
        return QString::fromStdString(graph.string(arg.string));
    case ArgKind::Node:
        return nodeRef(arg.node);
    case ArgKind::List: {
        QStringList parts;
        for (const Arg& child : graph.children(arg))
            parts << argText(graph, child, nodeRef);
        return QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
    }
    case ArgKind::Dict: {
        QStringList parts;
        const auto children = graph.children(arg);
        for (std::size_t i = 0; i + 1 < children.size(); i += 2)
            parts << argText(graph, children[i], nodeRef) + QLatin1String(": ")
                    + argText(graph, children[i + 1], nodeRef);
        return QLatin1Char('{') + parts.join(QLatin1String(", ")) + QLatin1Char('}');
    }
    }
    return {};
}

} // namespace

QString argumentsText(const JointGraph& graph, NodeId n, const std::function<QString(NodeId)>& nodeRef)
{
    const Node& node = graph.node(n);
    QStringList parts;
    for (const Arg& a : graph.children(graph.arg(node.args)))
        parts << argText(graph, a, nodeRef);
    const Arg& kwargs = graph.arg(node.kwargs);
    if (kwargs.kind == ArgKind::Dict) {
        const auto children = graph.children(kwargs);
        for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
            const Arg& key = children[i];
            const QString name = key.kind == ArgKind::String
                ? QString::fromStdString(graph.string(key.string))
                : argText(graph, key, nodeRef);
            parts << name + QLatin1Char('=') + argText(graph, children[i + 1], nodeRef);
        }
    }
    return parts.join(QLatin1String(", "));
}

} // namespace remat::ui
