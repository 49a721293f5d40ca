// SPDX-License-Identifier: MIT
#pragma once

#include "document/partition_runner.h"
#include "document/project_file.h"
#include "document/session_journal.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QUndoStack;

namespace remat::ui {

/// The open graph with the user's work on it: tags (undoable, autosaved to the sidecar project
/// file), partitioner settings, and the latest partition, re-run off the GUI thread after every
/// change.
class GraphDocument : public QObject {
    Q_OBJECT
public:
    using TagChange = std::pair<NodeId, std::optional<CheckpointPolicy>>; ///< nullopt: no override

    explicit GraphDocument(QObject* parent = nullptr);
    ~GraphDocument() override;

    /// Takes a freshly opened graph: reads its project file, resets undo, starts partitioning.
    void setGraph(LoadedGraphPtr graph);
    LoadedGraphPtr graph() const { return m_graph; }
    QUndoStack* undoStack() const { return m_undo; }
    PartitionRunner* runner() const { return m_runner; }

    /// The tag in force on a node: the user's, else the file's meta["recompute"].
    CheckpointPolicy tagInForce(NodeId n) const;
    std::optional<CheckpointPolicy> userOverride(NodeId n) const;
    const std::map<NodeId, CheckpointPolicy>& userOverrides() const { return m_userTags; }
    /// Tags (or with nullopt clears) the taggable ones among `nodes`, as one undo step.
    /// Returns how many nodes changed.
    int tagNodes(const std::vector<NodeId>& nodes, std::optional<CheckpointPolicy> policy);
    /// Sets overrides exactly (the undo command's primitive).
    void applyOverrides(const std::vector<TagChange>& changes);

    PartitionOptions partitionOptions() const; ///< settings plus the tags in force
    /// What the runner is asked: the options, and the budget settings in budget mode.
    PartitionRequest partitionRequest() const;
    PartitionerKind partitioner() const { return m_partitioner; }
    RuleSet rules() const { return m_rules; }
    OpListCompiler compiler() const { return m_compiler; }
    /// The memory-budget partitioner (choose_saved_values_set) instead of `partitioner()`: min-cut
    /// under the newest rules whatever `rules()` says (kept for when the user switches back).
    bool budgetMode() const { return m_budgetMode; }
    const BudgetSettings& budgetSettings() const { return m_budget; }
    /// torch 2.x's enable_activation_offloading: offload-tagged saved values go to the host.
    bool activationOffloading() const { return m_activationOffloading; }
    void setActivationOffloading(bool enabled);
    /// Inductor's joint-graph passes are replayed before partitioning: as the user chose, else when
    /// the file's decision came after them. Only under the torch-2.14 rules (a budget's included).
    bool inductorJointPasses() const;
    void setInductorJointPasses(bool enabled);
    void setPartitionSettings(
        PartitionerKind partitioner, RuleSet rules, OpListCompiler compiler, bool budgetMode = false);
    /// Re-partitions at once in budget mode (the runner drops stale results, so a dragged slider
    /// only ever waits for the latest budget).
    void setBudgetSettings(const BudgetSettings& settings);
    PartitionOutcomePtr outcome() const { return m_outcome; }
    /// Shows a plan made elsewhere (a plan file) as the current decision, until the next change
    /// re-partitions.
    void showPlan(PartitionOutcomePtr outcome);
    bool isPartitioning() const { return m_runner->isBusy(); }

    /// What the project file holds for this graph: the tags and the settings changed from the defaults.
    ProjectData projectData() const;
    /// Where the project file is (or will be) saved.
    QString projectPath() const { return m_projectPath; }
    /// Off for headless screenshots, so that reviewing never writes beside the inputs.
    void setAutosave(bool enabled) { m_autosave = enabled; }
    /// Saves the project file off the GUI thread: projectSaved or projectProblem says how it went.
    /// False without a graph.
    bool saveProject();

    using RecoveryHandler = std::function<RecoveryChoice(const InterruptedSession&)>;
    /// Asked, while a graph opens, what to do with the work a session that ended unexpectedly
    /// autosaved for it. Without a handler the work is shown and the question kept for later.
    void setRecoveryHandler(RecoveryHandler handler) { m_recoveryHandler = std::move(handler); }
    /// Saves what is pending and ends the graph's session cleanly: its next open offers no recovery.
    void endSession();

Q_SIGNALS:
    void graphChanged();
    void tagsChanged(const std::vector<NodeId>& nodes);
    void partitionSettingsChanged();
    void partitionRequested();
    void partitionChanged(remat::ui::PartitionOutcomePtr outcome);
    /// `tagsChanged`: the save holds new tags (not only new settings).
    void projectSaved(const QString& path, bool tagsChanged);
    /// Not fatal (a project file that cannot be read or written): shown in the status bar.
    void projectProblem(const QString& message);

private:
    void repartition();
    void scheduleSave();
    /// Locks the graph's session journal and settles an interrupted session's work; null when this
    /// session must not keep a record (another process has the graph open, or "later").
    std::unique_ptr<SessionJournal> openJournal(const QString& projectKey);

    LoadedGraphPtr m_graph;
    QUndoStack* m_undo;
    PartitionRunner* m_runner;
    std::map<NodeId, CheckpointPolicy> m_userTags;
    PartitionerKind m_partitioner = PartitionerKind::MinCut;
    RuleSet m_rules = RuleSet::Torch113;
    OpListCompiler m_compiler = OpListCompiler::Nvfuser;
    bool m_budgetMode = false;
    bool m_activationOffloading = false;
    std::optional<bool> m_inductorJointPasses; ///< the user's choice; unset: as recorded
    BudgetSettings m_budget;
    PartitionOutcomePtr m_outcome;
    QString m_projectPath;
    ProjectData m_savedData;
    bool m_lastSaveFailed = false; // the next save writes even if nothing changed
    QTimer m_saveTimer;
    bool m_autosave = true;
    std::unique_ptr<SessionJournal> m_session;
    RecoveryHandler m_recoveryHandler;
};

} // namespace remat::ui
