// SPDX-License-Identifier: MIT
#include "model/graph_grouping.h"

#include "model/repeated_blocks.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>

namespace remat::ui {
namespace {

constexpr int kNoBlock = -1;

struct LeafDraft {
    Segment segment;
    QString label;
    int blockIndex = kNoBlock; ///< forward block number, for range labels
    bool repeated = false; ///< one of the repeated blocks (not a prologue or epilogue)
};

/// One side's computation nodes in graph order, with the edges among them as positions.
struct SideSequence {
    Side side = Side::Forward;
    std::vector<NodeId> nodes;
    std::vector<std::uint32_t> ops;
    std::vector<int> cross;
};

SideSequence sequenceOf(
    const JointGraph& graph, const GraphRegions& regions, Side side, std::vector<int>& position)
{
    SideSequence seq;
    seq.side = side;
    for (const Node& node : graph.nodes()) {
        const NodeId id = static_cast<NodeId>(&node - graph.nodes().data());
        const Region r = regions.of(id);
        if (r == Region::Primal || r == Region::Tangent || r == Region::Output || regions.sideOf(id) != side)
            continue;
        position[static_cast<std::size_t>(id)] = static_cast<int>(seq.nodes.size());
        seq.nodes.push_back(id);
        seq.ops.push_back(node.target);
    }
    std::vector<std::pair<int, int>> edges;
    for (NodeId v : seq.nodes) {
        for (NodeId u : graph.node(v).inputs) {
            const int pu = position[static_cast<std::size_t>(u)];
            if (pu >= 0 && regions.sideOf(u) == side)
                edges.emplace_back(pu, position[static_cast<std::size_t>(v)]);
        }
    }
    seq.cross = cutWidths(static_cast<int>(seq.nodes.size()), edges);
    return seq;
}

const std::vector<std::string>* moduleStack(const JointGraph& graph, NodeId n)
{
    const auto& stack = graph.node(n).meta.source->nnModuleStack;
    return stack.empty() ? nullptr : &stack;
}

bool hasModuleInfo(const JointGraph& graph, const SideSequence& seq)
{
    std::size_t with = 0;
    for (NodeId n : seq.nodes)
        with += moduleStack(graph, n) ? 1 : 0;
    return !seq.nodes.empty() && with * 2 >= seq.nodes.size();
}

/// How many outer modules every node with module info shares. Dynamo's stacks all start with the
/// whole model ("L['self']"), so grouping by the outermost module put everything in one group.
std::size_t sharedModuleDepth(const JointGraph& graph, const SideSequence& seq)
{
    const std::vector<std::string>* first = nullptr;
    std::size_t depth = 0;
    for (NodeId n : seq.nodes) {
        const auto* stack = moduleStack(graph, n);
        if (!stack)
            continue;
        if (!first) {
            first = stack;
            depth = stack->size();
            continue;
        }
        std::size_t same = 0;
        while (same < depth && same < stack->size() && (*stack)[same] == (*first)[same])
            ++same;
        depth = same;
    }
    return depth;
}

/// The module a node is under at `depth` of its stack (its innermost if the stack is shorter).
const std::string* moduleAt(const JointGraph& graph, NodeId n, std::size_t depth)
{
    const auto* stack = moduleStack(graph, n);
    return stack ? &(*stack)[std::min(depth, stack->size() - 1)] : nullptr;
}

/// Runs of nodes under the same module at `depth`; nodes without module info stay with the run
/// before them, and runs of fewer than four nodes join their neighbour.
std::vector<Segment> moduleRuns(const JointGraph& graph, const SideSequence& seq, std::size_t depth)
{
    std::vector<std::string> keys(seq.nodes.size());
    std::string last;
    for (std::size_t i = 0; i < seq.nodes.size(); ++i) {
        if (const std::string* module = moduleAt(graph, seq.nodes[i], depth))
            last = *module;
        keys[i] = last;
    }
    std::vector<Segment> runs;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (!runs.empty() && (keys[i] == keys[i - 1] || runs.back().size() < 4))
            runs.back().end = static_cast<int>(i) + 1;
        else
            runs.push_back({static_cast<int>(i), static_cast<int>(i) + 1, false});
    }
    if (runs.size() > 1 && runs.back().size() < 4) {
        runs[runs.size() - 2].end = runs.back().end;
        runs.pop_back();
    }
    return runs;
}

/// The first depth of the module stacks, from `sharedDepth` down, where no module holds most of
/// the nodes: a model's "model" wrapping all its layers tells nothing, its layers do.
std::size_t informativeModuleDepth(const JointGraph& graph, const SideSequence& seq, std::size_t sharedDepth)
{
    constexpr std::size_t kDeepest = 8;
    std::size_t depth = sharedDepth;
    for (; depth < sharedDepth + kDeepest; ++depth) {
        std::map<std::string, int> counts;
        int with = 0;
        bool deeper = false; // some stack goes on below this depth
        for (NodeId n : seq.nodes) {
            const auto* stack = moduleStack(graph, n);
            if (!stack)
                continue;
            ++with;
            ++counts[(*stack)[std::min(depth, stack->size() - 1)]];
            deeper = deeper || stack->size() > depth + 1;
        }
        int largest = 0;
        for (const auto& [module, count] : counts)
            largest = std::max(largest, count);
        if (largest * 10 < with * 6 || !deeper)
            break;
    }
    return depth;
}

/// The shallowest module path from `fromDepth` down that covers most of the nodes with module info.
QString dominantModule(const JointGraph& graph, std::span<const NodeId> nodes, std::size_t fromDepth)
{
    for (std::size_t depth = fromDepth; depth < fromDepth + 4; ++depth) {
        std::map<std::string, int> counts;
        int with = 0;
        for (NodeId n : nodes) {
            const std::string* module = moduleAt(graph, n, depth);
            if (!module)
                continue;
            ++with;
            ++counts[*module];
        }
        if (with == 0)
            return {};
        for (const auto& [key, count] : counts) {
            if (count * 10 >= with * 6)
                return QString::fromStdString(key);
        }
    }
    return {};
}

/// Dynamo names modules from the traced function's locals: "L['self'].blocks.0". When every
/// stack starts there but no node sits in the model's own scope (so no module is shared by all),
/// that root still says nothing: "blocks.0" does.
QString dynamoRoot(const JointGraph& graph, const SideSequence& seq)
{
    static const QRegularExpression root(QStringLiteral(R"re(^([LG]\[[^\]]*\])(\.|$))re"));
    QString found;
    std::string prefix; // found + ".": most stacks are checked by this alone, not the expression
    for (NodeId n : seq.nodes) {
        const auto* stack = moduleStack(graph, n);
        if (!stack)
            continue;
        const std::string& outermost = stack->front();
        if (!prefix.empty()
            && (outermost.starts_with(prefix)
                || std::string_view(prefix).substr(0, prefix.size() - 1) == outermost))
            continue;
        const QRegularExpressionMatch m = root.match(QString::fromStdString(outermost));
        if (!m.hasMatch() || (!found.isEmpty() && m.captured(1) != found))
            return {};
        found = m.captured(1);
        prefix = found.toStdString() + '.';
    }
    return found;
}

/// A module's name without the modules every node shares: "model.layers.0", not
/// "L['m'].model.layers.0"; the shared module itself (the model's own ops) is the "top level".
QString withoutSharedPrefix(const QString& module, const QString& shared)
{
    if (shared.isEmpty())
        return module;
    if (module == shared)
        return QStringLiteral("top level");
    if (module.startsWith(shared + QLatin1Char('.')))
        return module.mid(shared.size() + 1);
    return module;
}

/// A run of small modules none of which holds most of its nodes: the first and last of them in
/// order ("permute … top level"), so that the group still says what it is rather than "part 6".
QString modulesInOrder(
    const JointGraph& graph, std::span<const NodeId> nodes, std::size_t depth, const QString& shared)
{
    QStringList names;
    for (NodeId n : nodes) {
        if (const std::string* module = moduleAt(graph, n, depth)) {
            const QString name = withoutSharedPrefix(QString::fromStdString(*module), shared);
            if (!names.contains(name))
                names << name;
        }
    }
    if (names.size() > 2) // the box's title has room for about twenty characters
        return QStringLiteral("%1 … %2").arg(names.front(), names.back());
    return names.join(QStringLiteral(", "));
}

std::vector<LeafDraft> leafDrafts(
    const JointGraph& graph, const SideSequence& seq, const GroupingOptions& options, QString& method)
{
    const int n = static_cast<int>(seq.nodes.size());
    const bool modules = hasModuleInfo(graph, seq);
    std::vector<Segment> segments = findRepeatedBlocks(seq.ops, seq.cross);
    int period = 0;
    for (const Segment& s : segments) {
        if (s.repeated)
            period = s.size();
    }
    const std::size_t sharedDepth = modules ? sharedModuleDepth(graph, seq) : 0;
    const std::size_t moduleDepth = modules ? informativeModuleDepth(graph, seq, sharedDepth) : 0;
    QString shared;
    if (sharedDepth > 0) {
        for (NodeId node : seq.nodes) {
            if (const auto* stack = moduleStack(graph, node)) {
                shared = QString::fromStdString((*stack)[sharedDepth - 1]);
                break;
            }
        }
    } else if (modules)
        shared = dynamoRoot(graph, seq);
    if (!segments.empty())
        method = QStringLiteral("repeated blocks of %1 nodes").arg(period);
    else if (modules) {
        segments = moduleRuns(graph, seq, moduleDepth);
        method = QStringLiteral("modules");
    } else {
        segments = chunkAtSeams(0, n, seq.cross, options.chunkTarget);
        method = QStringLiteral("chunks cut where few edges cross");
    }

    // Module names label blocks only when they tell blocks apart ("blocks.3", not "lstm" x 12).
    std::vector<QString> moduleOf(segments.size());
    std::map<QString, int> repeatedModules;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const Segment& s = segments[i];
        if (modules) {
            const std::span<const NodeId> members(
                seq.nodes.data() + s.begin, static_cast<std::size_t>(s.size()));
            moduleOf[i] = withoutSharedPrefix(dominantModule(graph, members, moduleDepth), shared);
            if (moduleOf[i].isEmpty() && !s.repeated)
                moduleOf[i] = modulesInOrder(graph, members, moduleDepth, shared);
        }
        if (s.repeated)
            ++repeatedModules[moduleOf[i]];
    }
    // Neighbours under one module are one group: runs of a module's own ops can be split by the
    // short runs of its children that join them (hf_gpt2's "transformer" was two groups).
    for (std::size_t i = 1; i < segments.size();) {
        if (!segments[i].repeated && !segments[i - 1].repeated && !moduleOf[i].isEmpty()
            && moduleOf[i] == moduleOf[i - 1]) {
            segments[i - 1].end = segments[i].end;
            segments.erase(segments.begin() + static_cast<std::ptrdiff_t>(i));
            moduleOf.erase(moduleOf.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
            ++i;
        }
    }
    bool distinctModules = true;
    for (const auto& [name, count] : repeatedModules)
        distinctModules = distinctModules && !name.isEmpty() && count == 1;

    std::vector<LeafDraft> drafts;
    int block = 0;
    bool seenBlock = false;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const Segment& s = segments[i];
        QString label;
        int blockIndex = kNoBlock;
        const QString& module = moduleOf[i];
        if (s.repeated) {
            blockIndex = block++;
            label = distinctModules ? module : QStringLiteral("block %1").arg(blockIndex);
            seenBlock = true;
        } else if (!module.isEmpty()) {
            label = module;
        } else if (period > 0) {
            label = seenBlock ? QStringLiteral("epilogue") : QStringLiteral("prologue");
        } else {
            // Chunks of a graph without repeats count like blocks, so that many of them get ranges.
            blockIndex = static_cast<int>(drafts.size());
            label = QStringLiteral("part %1").arg(blockIndex + 1);
        }
        // Oversized groups are cut again, so that expanding one never means a slow layout.
        if (s.size() > options.maxLeaf) {
            const auto pieces = chunkAtSeams(s.begin, s.end, seq.cross, options.chunkTarget);
            for (std::size_t k = 0; k < pieces.size(); ++k)
                drafts.push_back({pieces[k],
                    QStringLiteral("%1 (%2/%3)").arg(label).arg(k + 1).arg(pieces.size()), blockIndex});
        } else {
            drafts.push_back({s, label, blockIndex});
        }
    }
    return drafts;
}

QString rangeLabel(const GroupTree& tree, const std::vector<int>& children,
    const std::vector<int>& blockIndex, bool backward)
{
    int lo = std::numeric_limits<int>::max();
    int hi = std::numeric_limits<int>::min();
    for (int c : children) {
        lo = std::min(lo, blockIndex[static_cast<std::size_t>(c)]);
        hi = std::max(hi, blockIndex[static_cast<std::size_t>(c)]);
    }
    const QString prefix = backward ? QStringLiteral("∇ ") : QString();
    QString first = tree.group(children.front()).label;
    if (first.startsWith(prefix))
        first = first.mid(prefix.size());
    if (first.startsWith(QLatin1String("block ")))
        return prefix + QStringLiteral("blocks %1–%2").arg(lo).arg(hi);
    if (first.startsWith(QLatin1String("part ")))
        return prefix + QStringLiteral("parts %1–%2").arg(lo + 1).arg(hi + 1);
    return tree.group(children.front()).label + QStringLiteral(" … ") + tree.group(children.back()).label;
}

/// The backward mirrors the forward: each backward node joins the forward group whose values
/// it consumes (directly, weighing double, or through the backward nodes it consumes), so that
/// "∇ block 3" is exactly the gradient of block 3 even when the backward does not repeat
/// cleanly (recomputation under checkpointing, accumulated gradients). Returns, per forward
/// group, its backward members in graph order.
std::map<int, std::vector<NodeId>> mirrorBackward(
    const JointGraph& graph, const SideSequence& seq, const GroupTree& tree)
{
    std::vector<int> mirror(graph.size(), -1);
    std::vector<char> onSide(graph.size(), 0);
    for (NodeId v : seq.nodes)
        onSide[static_cast<std::size_t>(v)] = 1;
    for (NodeId v : seq.nodes) {
        std::map<int, int> votes;
        for (NodeId u : graph.node(v).inputs) {
            const auto ui = static_cast<std::size_t>(u);
            if (!onSide[ui] && tree.leafOf[ui] >= 0)
                votes[tree.leafOf[ui]] += 2;
            else if (onSide[ui] && mirror[ui] >= 0)
                votes[mirror[ui]] += 1;
        }
        if (!votes.empty())
            mirror[static_cast<std::size_t>(v)]
                = std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) {
                      return a.second < b.second;
                  })->first;
    }
    // Nodes fed only by tangents take the group of their users.
    for (auto it = seq.nodes.rbegin(); it != seq.nodes.rend(); ++it) {
        int& m = mirror[static_cast<std::size_t>(*it)];
        for (NodeId user : graph.node(*it).users) {
            if (m < 0 && onSide[static_cast<std::size_t>(user)])
                m = mirror[static_cast<std::size_t>(user)];
        }
    }
    // Whatever is still open (a tangent's own arithmetic) stays with its neighbour in graph order.
    int previous = -1;
    for (NodeId v : seq.nodes) {
        int& m = mirror[static_cast<std::size_t>(v)];
        if (m < 0)
            m = previous;
        previous = m;
    }
    std::map<int, std::vector<NodeId>> groups;
    for (NodeId v : seq.nodes)
        groups[mirror[static_cast<std::size_t>(v)]].push_back(v);
    return groups;
}

} // namespace

GroupTree groupGraph(const JointGraph& graph, const GraphRegions& regions, const GroupingOptions& options)
{
    GroupTree tree;
    if (graph.size() < static_cast<std::size_t>(options.minNodes))
        return tree;
    tree.leafOf.assign(graph.size(), -1);
    std::vector<int> position(graph.size(), -1);
    std::vector<int> blockIndex; // per group
    std::vector<char> repeated; // per group
    std::vector<int> sideLeaves[2];
    QStringList methods;

    auto addLeaf = [&](Side side, QString label, std::vector<NodeId> members, int block, bool isRepeated) {
        const int g = static_cast<int>(tree.groups.size());
        Group group;
        group.label = std::move(label);
        group.side = side;
        for (NodeId n : members)
            tree.leafOf[static_cast<std::size_t>(n)] = g;
        group.members = std::move(members);
        tree.groups.push_back(std::move(group));
        blockIndex.push_back(block);
        repeated.push_back(isRepeated ? 1 : 0);
        sideLeaves[static_cast<int>(side)].push_back(g);
    };
    bool mirrored = false;

    for (Side side : {Side::Forward, Side::Backward}) {
        const SideSequence seq = sequenceOf(graph, regions, side, position);
        if (seq.nodes.empty())
            continue;
        if (side == Side::Backward && sideLeaves[static_cast<int>(Side::Forward)].size() >= 2) {
            // Ordered by where each mirrored group starts in graph order (the backward runs the
            // blocks in reverse); big ones are cut into pieces.
            auto mirror = mirrorBackward(graph, seq, tree);
            std::vector<std::pair<int, std::vector<NodeId>>> ordered(mirror.begin(), mirror.end());
            std::sort(ordered.begin(), ordered.end(),
                [](auto& a, auto& b) { return a.second.front() < b.second.front(); });
            for (auto& [source, members] : ordered) {
                const QString label = source >= 0 ? QStringLiteral("∇ ") + tree.group(source).label
                                                  : QStringLiteral("∇ other");
                const int block = source >= 0 ? blockIndex[static_cast<std::size_t>(source)] : kNoBlock;
                const bool isRepeated = source >= 0 && repeated[static_cast<std::size_t>(source)];
                const std::size_t pieces = (members.size() + static_cast<std::size_t>(options.maxLeaf) - 1)
                    / static_cast<std::size_t>(options.maxLeaf);
                if (pieces <= 1) {
                    addLeaf(side, label, std::move(members), block, isRepeated);
                    continue;
                }
                const std::size_t per = (members.size() + pieces - 1) / pieces;
                for (std::size_t k = 0; k * per < members.size(); ++k) {
                    std::vector<NodeId> part(members.begin() + static_cast<std::ptrdiff_t>(k * per),
                        members.begin()
                            + static_cast<std::ptrdiff_t>(std::min(members.size(), (k + 1) * per)));
                    addLeaf(side, QStringLiteral("%1 (%2/%3)").arg(label).arg(k + 1).arg(pieces),
                        std::move(part), block, isRepeated);
                }
            }
            methods << QStringLiteral("backward: mirrors the forward groups");
            mirrored = true;
            continue;
        }
        QString method;
        const auto drafts = leafDrafts(graph, seq, options, method);
        methods << (side == Side::Forward ? QStringLiteral("forward: ") : QStringLiteral("backward: "))
                + method;
        for (const LeafDraft& d : drafts) {
            const int g = static_cast<int>(tree.groups.size());
            Group group;
            group.label = d.label;
            group.side = side;
            for (int i = d.segment.begin; i < d.segment.end; ++i) {
                const NodeId n = seq.nodes[static_cast<std::size_t>(i)];
                group.members.push_back(n);
                tree.leafOf[static_cast<std::size_t>(n)] = g;
            }
            tree.groups.push_back(std::move(group));
            blockIndex.push_back(d.blockIndex);
            repeated.push_back(d.repeated ? 1 : 0);
            sideLeaves[static_cast<int>(side)].push_back(g);
        }
    }
    if (tree.groups.empty())
        return tree;
    tree.method = methods.join(QStringLiteral("; "));

    // Backward groups are named after the forward group they draw most values from; a backward
    // block after a forward block, a backward prologue or epilogue after a forward one.
    std::map<QString, int> usedLabels;
    for (int g : mirrored ? std::vector<int> {} : sideLeaves[static_cast<int>(Side::Backward)]) {
        std::map<int, int> votes;
        std::map<int, int> sameKind;
        for (NodeId v : tree.group(g).members) {
            for (NodeId u : graph.node(v).inputs) {
                const int src = tree.leafGroup(u);
                if (src < 0 || tree.group(src).side != Side::Forward)
                    continue;
                ++votes[src];
                if (repeated[static_cast<std::size_t>(src)] == repeated[static_cast<std::size_t>(g)])
                    ++sameKind[src];
            }
        }
        if (!sameKind.empty())
            votes = std::move(sameKind);
        if (votes.empty())
            continue;
        const int src = std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) {
            return a.second < b.second;
        })->first;
        QString label = QStringLiteral("∇ ") + tree.group(src).label;
        const int seen = usedLabels[label]++;
        if (seen > 0)
            label += QStringLiteral(" (%1)").arg(seen + 1);
        tree.groups[static_cast<std::size_t>(g)].label = label;
        blockIndex[static_cast<std::size_t>(g)] = blockIndex[static_cast<std::size_t>(src)];
    }

    // Inputs live with their first user: a block's weights inside the block, a tangent with
    // the backward that consumes it.
    for (std::size_t i = 0; i < graph.size(); ++i) {
        const Region r = regions.region[i];
        if (r != Region::Primal && r != Region::Tangent)
            continue;
        const auto& users = graph.nodes()[i].users;
        int g = -1;
        for (NodeId u : users) {
            if ((g = tree.leafGroup(u)) >= 0)
                break;
        }
        if (g < 0) {
            const auto& leaves = sideLeaves[static_cast<int>(regions.side[i])];
            if (leaves.empty())
                continue;
            g = leaves.front();
        }
        tree.leafOf[i] = g;
        tree.groups[static_cast<std::size_t>(g)].members.push_back(static_cast<NodeId>(i));
    }
    for (Group& group : tree.groups)
        std::sort(group.members.begin(), group.members.end());

    // Long runs of blocks are gathered into ranges ("blocks 0–11"), so that the summary stays
    // readable; the backward's ranges follow the forward's, so that the two arms line up.
    auto addRange = [&](const std::vector<int>& children, int side) {
        if (children.size() == 1) {
            tree.roots.push_back(children.front());
            return;
        }
        const int g = static_cast<int>(tree.groups.size());
        Group range;
        range.side = static_cast<Side>(side);
        range.children = children;
        range.label = rangeLabel(tree, children, blockIndex, side == static_cast<int>(Side::Backward));
        for (int c : children) {
            tree.groups[static_cast<std::size_t>(c)].parent = g;
            const auto& m = tree.group(c).members;
            range.members.insert(range.members.end(), m.begin(), m.end());
        }
        std::sort(range.members.begin(), range.members.end());
        tree.groups.push_back(std::move(range));
        blockIndex.push_back(kNoBlock);
        repeated.push_back(0);
        tree.roots.push_back(g);
    };
    auto isBlock = [&](int g) { return blockIndex[static_cast<std::size_t>(g)] != kNoBlock; };
    int blocks = 0;
    for (int g : sideLeaves[static_cast<int>(Side::Forward)])
        blocks += isBlock(g) ? 1 : 0;
    const int perRange = blocks > options.maxBlocks ? (blocks + 7) / 8 : 0;
    for (int s = 0; s < 2; ++s) {
        const auto& leaves = sideLeaves[s];
        if (perRange == 0) {
            tree.roots.insert(tree.roots.end(), leaves.begin(), leaves.end());
            continue;
        }
        // Consecutive leaves whose block falls in the same range of forward blocks go together.
        std::vector<int> run;
        int runRange = -1;
        auto flush = [&] {
            if (!run.empty())
                addRange(run, s);
            run.clear();
        };
        for (int g : leaves) {
            const int range = isBlock(g) ? blockIndex[static_cast<std::size_t>(g)] / perRange : -1;
            if (range < 0) {
                flush();
                tree.roots.push_back(g);
            } else {
                if (range != runRange)
                    flush();
                run.push_back(g);
            }
            runRange = range;
        }
        flush();
    }
    // A forward group and the backward group named after it are partners: expanding one on the
    // canvas expands both, so that the values saved between them are short edges.
    tree.partner.assign(tree.groups.size(), -1);
    std::map<QString, int> forwardByLabel;
    for (std::size_t g = 0; g < tree.groups.size(); ++g) {
        if (tree.groups[g].side == Side::Forward)
            forwardByLabel.emplace(tree.groups[g].label, static_cast<int>(g));
    }
    const QString nabla = QStringLiteral("∇ ");
    for (std::size_t g = 0; g < tree.groups.size(); ++g) {
        const Group& group = tree.groups[g];
        if (group.side != Side::Backward || !group.label.startsWith(nabla))
            continue;
        const auto it = forwardByLabel.find(group.label.mid(nabla.size()));
        if (it != forwardByLabel.end() && tree.partner[static_cast<std::size_t>(it->second)] < 0) {
            tree.partner[g] = it->second;
            tree.partner[static_cast<std::size_t>(it->second)] = static_cast<int>(g);
        }
    }
    return tree;
}

} // namespace remat::ui
