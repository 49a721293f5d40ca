// SPDX-License-Identifier: MIT
#include "document/project_file.h"

#include "model/atomic_write.h"
#include "model/policy_names.h"
#include "model/qt_strings.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace remat::ui {
namespace {

constexpr int kProjectVersion = 1;
const QLatin1String kFormat("remat-explorer-project");

// The memory-budget partitioner is the app's, not one of the core's PartitionerKinds. Choosing it
// replaces the min-cut/default choice in the file (switching back starts from min-cut).
const QLatin1String kBudgetPartitioner("budget");

bool isResource(const QString& path)
{
    return path.startsWith(QLatin1String(":/")) || path.startsWith(QLatin1String("qrc:"));
}

BudgetSettings readBudget(const QJsonObject& object)
{
    BudgetSettings settings;
    settings.budget = object.value(QLatin1String("budget")).toDouble(settings.budget);
    if (auto s = parseSolver(object.value(QLatin1String("solver")).toString().toStdString()))
        settings.solver = *s;
    if (auto e = parseEstimator(object.value(QLatin1String("estimator")).toString().toStdString()))
        settings.estimator = *e;
    settings.device = object.value(QLatin1String("device")).toString();
    return settings;
}

QJsonObject writeBudget(const BudgetSettings& settings)
{
    QJsonObject object;
    object.insert(QLatin1String("budget"), settings.budget);
    object.insert(QLatin1String("solver"), toQString(solverName(settings.solver)));
    object.insert(QLatin1String("estimator"), toQString(estimatorName(settings.estimator)));
    if (!settings.device.isEmpty())
        object.insert(QLatin1String("device"), settings.device);
    return object;
}

} // namespace

namespace ProjectFile {

QString besidePath(const QString& graphPath)
{
    return isResource(graphPath) ? QString() : graphPath + QStringLiteral(".remat");
}

QString storageName(const QString& graphPath)
{
    const QString absolute = isResource(graphPath) ? graphPath : QFileInfo(graphPath).absoluteFilePath();
    const QByteArray hash
        = QCryptographicHash::hash(absolute.toUtf8(), QCryptographicHash::Sha1).toHex().left(12);
    return QFileInfo(graphPath).fileName() + QLatin1Char('-') + QString::fromLatin1(hash);
}

QString fallbackPath(const QString& graphPath)
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/projects/")
        + storageName(graphPath) + QStringLiteral(".remat");
}

QString find(const QString& graphPath)
{
    const QString beside = besidePath(graphPath);
    if (!beside.isEmpty() && QFileInfo::exists(beside))
        return beside;
    const QString fallback = fallbackPath(graphPath);
    return QFileInfo::exists(fallback) ? fallback : QString();
}

QString saveLocation(const QString& graphPath)
{
    const QString existing = find(graphPath);
    if (!existing.isEmpty() && QFileInfo(existing).isWritable())
        return existing;
    const QString beside = besidePath(graphPath);
    if (!beside.isEmpty() && QFileInfo(QFileInfo(beside).absolutePath()).isWritable())
        return beside;
    return fallbackPath(graphPath);
}

std::optional<ProjectData> decode(const QJsonObject& root, const QString& path, QString* error)
{
    if (root.value(QLatin1String("format")).toString() != kFormat) {
        *error = QObject::tr("%1: not a Remat Explorer project file").arg(path);
        return std::nullopt;
    }
    ProjectData data;
    const QJsonObject tags = root.value(QLatin1String("tags")).toObject();
    for (auto it = tags.begin(); it != tags.end(); ++it) {
        if (auto policy = parsePolicy(it.value().toString()))
            data.tags[it.key().toStdString()] = *policy;
    }
    const QJsonObject partition = root.value(QLatin1String("partition")).toObject();
    const QString partitioner = partition.value(QLatin1String("partitioner")).toString();
    if (partitioner == kBudgetPartitioner)
        data.budgetMode = true;
    else if (auto p = parsePartitioner(partitioner.toStdString()))
        data.partitioner = p;
    if (auto r = parseRuleSet(partition.value(QLatin1String("rules")).toString().toStdString()))
        data.rules = r;
    if (auto c = parseCompiler(partition.value(QLatin1String("compiler")).toString().toStdString()))
        data.compiler = c;
    if (const QJsonValue budget = partition.value(QLatin1String("budget")); budget.isObject())
        data.budget = readBudget(budget.toObject());
    if (const QJsonValue offload = partition.value(QLatin1String("activation_offloading")); offload.isBool())
        data.activationOffloading = offload.toBool();
    if (const QJsonValue passes = partition.value(QLatin1String("inductor_joint_passes")); passes.isBool())
        data.inductorJointPasses = passes.toBool();
    return data;
}

QJsonObject encode(const QString& graphPath, const ProjectData& data)
{
    QJsonObject root;
    root.insert(QLatin1String("format"), kFormat);
    root.insert(QLatin1String("version"), kProjectVersion);
    root.insert(QLatin1String("graph"), QFileInfo(graphPath).fileName());
    QJsonObject tags;
    for (const auto& [name, policy] : data.tags)
        tags.insert(QString::fromStdString(name), QLatin1String(policyName(policy)));
    root.insert(QLatin1String("tags"), tags);
    QJsonObject partition;
    if (data.budgetMode)
        partition.insert(QLatin1String("partitioner"), kBudgetPartitioner);
    else if (data.partitioner)
        partition.insert(QLatin1String("partitioner"), toQString(partitionerName(*data.partitioner)));
    if (data.rules)
        partition.insert(QLatin1String("rules"), toQString(ruleSetName(*data.rules)));
    if (data.compiler)
        partition.insert(QLatin1String("compiler"), toQString(compilerName(*data.compiler)));
    if (data.budget)
        partition.insert(QLatin1String("budget"), writeBudget(*data.budget));
    if (data.activationOffloading)
        partition.insert(QLatin1String("activation_offloading"), *data.activationOffloading);
    if (data.inductorJointPasses)
        partition.insert(QLatin1String("inductor_joint_passes"), *data.inductorJointPasses);
    root.insert(QLatin1String("partition"), partition);
    return root;
}

std::optional<ProjectData> read(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("%1: cannot read: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (doc.isNull()) {
        *error = QObject::tr("%1: not a project file: %2").arg(path, parseError.errorString());
        return std::nullopt;
    }
    return decode(doc.object(), path, error);
}

bool write(const QString& path, const QString& graphPath, const ProjectData& data, QString* error)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    *error = writeFileAtomic(path, QJsonDocument(encode(graphPath, data)).toJson(QJsonDocument::Indented));
    return error->isEmpty();
}

} // namespace ProjectFile

} // namespace remat::ui
