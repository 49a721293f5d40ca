// SPDX-License-Identifier: MIT
#include "model/budget_session_cache.h"

#include <chrono>

namespace remat::ui {
namespace {

bool sameConfig(const PartitionerConfig& a, const PartitionerConfig& b)
{
    const MinCutOptions& x = a.minCut;
    const MinCutOptions& y = b.minCut;
    return x.banIfUsedFarApart == y.banIfUsedFarApart && x.banIfLongFusibleChains == y.banIfLongFusibleChains
        && x.banIfMaterializedBackward == y.banIfMaterializedBackward
        && x.banIfNotInAllowlist == y.banIfNotInAllowlist && x.banIfReduction == y.banIfReduction
        && a.aggressiveRecomputation == b.aggressiveRecomputation && a.recomputeViews == b.recomputeViews
        && a.treatParametersAsFreeToSave == b.treatParametersAsFreeToSave && a.cse == b.cse
        && a.activationOffloading == b.activationOffloading && a.inductorJointPasses == b.inductorJointPasses;
}

} // namespace

BudgetSessionCache::Entry BudgetSessionCache::get(
    const LoadedGraphPtr& graph, const PartitionOptions& options, const BudgetSettings& settings)
{
    // Rules and partitioner are not part of the key: the session forces min-cut and the newest rules.
    if (m_session && m_graph == graph && m_tags == options.tags && sameConfig(m_config, options.config)
        && m_settings.sameSession(settings))
        return {m_session, m_id, 0.0};

    m_session.reset();
    m_graph.reset();
    const auto start = std::chrono::steady_clock::now();
    auto session = std::make_shared<const BudgetSession>(graph->graph, options, budgetOptionsFor(settings));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m_graph = graph;
    m_tags = options.tags;
    m_config = options.config;
    m_settings = settings;
    m_session = std::move(session);
    m_id = ++m_builds;
    return {m_session, m_id, seconds};
}

void BudgetSessionCache::clear()
{
    m_session.reset();
    m_graph.reset();
}

} // namespace remat::ui
