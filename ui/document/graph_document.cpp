// SPDX-License-Identifier: MIT
#include "document/graph_document.h"

#include "analysis/recording_rules.h"
#include "document/tag_command.h"
#include "model/background_writes.h"
#include "model/graph_regions.h"
#include "model/thread_handoff.h"
#include "model/timing_log.h"

#include <QCoreApplication>
#include <QFile>
#include <QPointer>
#include <QUndoStack>

namespace remat::ui {
namespace {

// Long enough to batch a burst of tagging into one write, short enough that a crash loses little.
constexpr int kAutosaveDelayMs = 400;

QString describeTag(std::optional<CheckpointPolicy> policy)
{
    return policy ? QString::fromLatin1(policyName(*policy)) : QStringLiteral("no tag");
}

} // namespace

GraphDocument::GraphDocument(QObject* parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
    , m_runner(new PartitionRunner(this))
{
    m_saveTimer.setSingleShot(true);
    m_saveTimer.setInterval(kAutosaveDelayMs);
    connect(&m_saveTimer, &QTimer::timeout, this, &GraphDocument::saveProject);
    connect(m_runner, &PartitionRunner::finished, this, [this](PartitionOutcomePtr outcome) {
        m_outcome = std::move(outcome);
        Q_EMIT partitionChanged(m_outcome);
    });
}

GraphDocument::~GraphDocument()
{
    endSession();
}

void GraphDocument::endSession()
{
    if (m_saveTimer.isActive())
        saveProject(); // the last edits
    // On disk before the record goes: a clean end leaves nothing to recover.
    BackgroundWrites::flush();
    m_session.reset(); // a clean end: no recovery offer next time
}

void GraphDocument::setGraph(LoadedGraphPtr graph)
{
    endSession(); // the previous graph's
    BackgroundWrites::flush(); // another window's save of this graph's project lands before it is read
    m_graph = std::move(graph);
    m_undo->clear();
    m_userTags.clear();
    m_outcome.reset();
    m_partitioner = PartitionerKind::MinCut;
    m_rules = rulesOfRecording(m_graph->graph); // a 2.x export opens under torch-2.14
    m_compiler = OpListCompiler::Nvfuser;
    m_budgetMode = false;
    m_activationOffloading = false;
    m_inductorJointPasses.reset();
    m_budget = {};
    // The graphs of one TORCH_TRACE log keep their tags apart: one project per compile id.
    const QString projectKey = m_graph->traceGraph.isEmpty() ? m_graph->path
                                                             : m_graph->path + QLatin1Char('.')
            + QString(m_graph->traceGraph)
                  .replace(QLatin1Char('/'), QLatin1Char('_'))
                  .replace(QLatin1Char(':'), QLatin1Char('_'));
    std::unique_ptr<SessionJournal> journal = openJournal(projectKey);
    m_projectPath = ProjectFile::saveLocation(projectKey);
    m_savedData = {};

    const QString existing = ProjectFile::find(projectKey);
    bool readable = true;
    if (!existing.isEmpty()) {
        QString error;
        if (auto data = ProjectFile::read(existing, &error)) {
            int unknown = 0;
            for (const auto& [name, policy] : data->tags) {
                const NodeId n = m_graph->graph.find(name);
                if (n == kNoNode || !isTaggable(m_graph->graph, n))
                    ++unknown;
                else
                    m_userTags[n] = policy;
            }
            m_partitioner = data->partitioner.value_or(m_partitioner);
            m_rules = data->rules.value_or(m_rules);
            m_compiler = data->compiler.value_or(m_compiler);
            m_budgetMode = data->budgetMode;
            m_budget = data->budget.value_or(m_budget);
            m_activationOffloading = data->activationOffloading.value_or(false);
            m_inductorJointPasses = data->inductorJointPasses;
            m_savedData = *data;
            if (unknown > 0)
                Q_EMIT projectProblem(tr("%1: %2 tags name nodes this graph does not have; they were ignored")
                                          .arg(existing)
                                          .arg(unknown));
        } else {
            readable = false;
            Q_EMIT projectProblem(error);
        }
    }
    // This session's record holds the project as opened: what Discard goes back to after a crash.
    if (journal && m_autosave && readable) {
        QString error;
        if (journal->begin(
                m_projectPath, existing.isEmpty() ? std::nullopt : std::optional(m_savedData), &error))
            m_session = std::move(journal);
        else
            Q_EMIT projectProblem(error);
    }
    m_runner->setGraph(m_graph);
    Q_EMIT graphChanged();
    repartition();
}

std::unique_ptr<SessionJournal> GraphDocument::openJournal(const QString& projectKey)
{
    auto journal = std::make_unique<SessionJournal>(projectKey);
    if (!m_autosave && !QFile::exists(journal->recordPath()))
        return nullptr; // a headless run keeps no record and has none to settle: it writes nothing
    qint64 otherPid = 0;
    QString error;
    if (!journal->lock(&otherPid, &error)) {
        Q_EMIT projectProblem(otherPid > 0 ? tr("%1 is open in another Remat Explorer too (process %2): the "
                                                "later autosave of the two wins")
                                                 .arg(m_graph->displayName)
                                                 .arg(otherPid)
                                           : error);
        return nullptr;
    }
    const std::optional<InterruptedSession> session = journal->interrupted(m_graph->displayName, &error);
    if (!error.isEmpty())
        Q_EMIT projectProblem(error);
    if (!session)
        return journal;
    const RecoveryChoice choice = m_recoveryHandler ? m_recoveryHandler(*session) : RecoveryChoice::Later;
    if (choice == RecoveryChoice::Later)
        return nullptr; // unlocks; the record waits for the next open
    if (choice == RecoveryChoice::Discard) {
        // Back to the project as that session found it (none: no project file).
        const bool reverted = session->before
            ? ProjectFile::write(session->projectPath, m_graph->path, *session->before, &error)
            : QFile::remove(session->projectPath);
        if (!reverted) {
            Q_EMIT projectProblem(
                error.isEmpty() ? tr("%1: cannot remove").arg(session->projectPath) : error);
            return nullptr; // keep the record: nothing was discarded
        }
    }
    journal->forgetInterrupted();
    return journal;
}

CheckpointPolicy GraphDocument::tagInForce(NodeId n) const
{
    if (auto o = userOverride(n))
        return *o;
    return m_graph ? m_graph->graph.node(n).meta.recompute : CheckpointPolicy::None;
}

std::optional<CheckpointPolicy> GraphDocument::userOverride(NodeId n) const
{
    const auto it = m_userTags.find(n);
    return it == m_userTags.end() ? std::nullopt : std::optional(it->second);
}

int GraphDocument::tagNodes(const std::vector<NodeId>& nodes, std::optional<CheckpointPolicy> policy)
{
    qCDebug(lcTiming, "%9.2f tag %zu nodes", timingClockMs(), nodes.size());
    if (!m_graph)
        return 0;
    std::vector<TagChange> before;
    std::vector<TagChange> after;
    for (NodeId n : nodes) {
        if (!isTaggable(m_graph->graph, n))
            continue;
        const CheckpointPolicy fileTag = m_graph->graph.node(n).meta.recompute;
        // Clearing a tag the file carries needs an explicit "none"; otherwise drop the override.
        std::optional<CheckpointPolicy> wanted = policy;
        if (!policy && fileTag != CheckpointPolicy::None)
            wanted = CheckpointPolicy::None;
        if (policy && *policy == fileTag)
            wanted = std::nullopt;
        const auto current = userOverride(n);
        if (current == wanted)
            continue;
        before.emplace_back(n, current);
        after.emplace_back(n, wanted);
    }
    if (after.empty())
        return 0;
    const QString what
        = after.size() == 1 ? m_graph->label(after.front().first).name : tr("%1 nodes").arg(after.size());
    const QString text
        = policy ? tr("Tag %1 %2").arg(what, describeTag(policy)) : tr("Clear the tag of %1").arg(what);
    m_undo->push(new TagCommand(this, std::move(before), after, text));
    return static_cast<int>(after.size());
}

void GraphDocument::applyOverrides(const std::vector<TagChange>& changes)
{
    std::vector<NodeId> nodes;
    nodes.reserve(changes.size());
    for (const auto& [n, policy] : changes) {
        if (policy)
            m_userTags[n] = *policy;
        else
            m_userTags.erase(n);
        nodes.push_back(n);
    }
    // Start the partitioner first: the views' updates below then overlap with it.
    repartition();
    Q_EMIT tagsChanged(nodes);
    scheduleSave();
    qCDebug(lcTiming, "%9.2f tag views updated", timingClockMs());
}

PartitionOptions GraphDocument::partitionOptions() const
{
    PartitionOptions options;
    options.partitioner = m_partitioner;
    options.rules = m_rules;
    options.compiler = m_compiler;
    options.config.activationOffloading = m_activationOffloading;
    options.config.inductorJointPasses = inductorJointPasses();
    options.tags.reserve(m_userTags.size());
    for (const auto& [n, policy] : m_userTags)
        options.tags.emplace_back(n, policy);
    return options;
}

PartitionRequest GraphDocument::partitionRequest() const
{
    PartitionRequest request {partitionOptions(), std::nullopt};
    if (m_budgetMode)
        request.budget = m_budget;
    return request;
}

void GraphDocument::setPartitionSettings(
    PartitionerKind partitioner, RuleSet rules, OpListCompiler compiler, bool budgetMode)
{
    if (partitioner == m_partitioner && rules == m_rules && compiler == m_compiler
        && budgetMode == m_budgetMode)
        return;
    m_partitioner = partitioner;
    m_rules = rules;
    m_compiler = compiler;
    m_budgetMode = budgetMode;
    Q_EMIT partitionSettingsChanged();
    repartition();
    scheduleSave();
}

void GraphDocument::setActivationOffloading(bool enabled)
{
    if (enabled == m_activationOffloading)
        return;
    m_activationOffloading = enabled;
    Q_EMIT partitionSettingsChanged();
    repartition();
    scheduleSave();
}

bool GraphDocument::inductorJointPasses() const
{
    if (!m_graph)
        return false;
    const JointPassReplay replay = !m_inductorJointPasses ? JointPassReplay::Auto
        : *m_inductorJointPasses                          ? JointPassReplay::On
                                                          : JointPassReplay::Off;
    // A budget runs the torch-2.14 rules whatever m_rules says.
    const RuleSet rules = m_budgetMode ? RuleSet::Newest : m_rules;
    return replaysInductorJointPasses(replay, rules, m_graph->graph);
}

void GraphDocument::setInductorJointPasses(bool enabled)
{
    if (enabled == inductorJointPasses())
        return;
    m_inductorJointPasses = enabled;
    Q_EMIT partitionSettingsChanged();
    repartition();
    scheduleSave();
}

void GraphDocument::setBudgetSettings(const BudgetSettings& settings)
{
    if (settings == m_budget)
        return;
    m_budget = settings;
    Q_EMIT partitionSettingsChanged();
    if (m_budgetMode)
        repartition();
    scheduleSave();
}

void GraphDocument::showPlan(PartitionOutcomePtr outcome)
{
    m_outcome = std::move(outcome);
    Q_EMIT partitionChanged(m_outcome);
}

void GraphDocument::repartition()
{
    if (!m_graph || m_graph->graph.kind() == GraphKind::Forward)
        return;
    m_runner->request(partitionRequest());
    Q_EMIT partitionRequested();
}

ProjectData GraphDocument::projectData() const
{
    ProjectData data;
    for (const auto& [n, policy] : m_userTags)
        data.tags[m_graph->graph.node(n).name] = policy;
    // Settings are written only once changed from the defaults, so an untouched graph has no file.
    if (m_partitioner != PartitionerKind::MinCut || m_savedData.partitioner)
        data.partitioner = m_partitioner;
    if (m_rules != rulesOfRecording(m_graph->graph) || m_savedData.rules)
        data.rules = m_rules;
    if (m_compiler != OpListCompiler::Nvfuser || m_savedData.compiler)
        data.compiler = m_compiler;
    data.budgetMode = m_budgetMode;
    if (m_budget != BudgetSettings {} || m_savedData.budget)
        data.budget = m_budget;
    if (m_activationOffloading || m_savedData.activationOffloading)
        data.activationOffloading = m_activationOffloading;
    data.inductorJointPasses = m_inductorJointPasses;
    return data;
}

void GraphDocument::scheduleSave()
{
    if (m_autosave)
        m_saveTimer.start();
}

bool GraphDocument::saveProject()
{
    m_saveTimer.stop();
    if (!m_graph)
        return false;
    const ProjectData data = projectData();
    if (data == m_savedData && !m_lastSaveFailed)
        return true;
    const bool tagsChanged = data.tags != m_savedData.tags;
    m_savedData = data;
    // Written off the GUI thread (QSaveFile fsyncs, which can take 100 ms and more on a busy
    // disk); the outcome comes back to it in order.
    BackgroundWrites::post(
        [self = QPointer(this), path = m_projectPath, graphPath = m_graph->path, data, tagsChanged] {
            QString error;
            const bool written = ProjectFile::write(path, graphPath, data, &error);
            queueCall(QCoreApplication::instance(), [self, path, tagsChanged, written, error] {
                if (!self)
                    return;
                self->m_lastSaveFailed = !written;
                if (written)
                    Q_EMIT self->projectSaved(path, tagsChanged);
                else
                    Q_EMIT self->projectProblem(error);
            });
        });
    return true;
}

} // namespace remat::ui
