// SPDX-License-Identifier: MIT
#include "window/command_line.h"

#include "analysis/recording_rules.h"
#include "budget/budget_planner.h"
#include "model/qt_strings.h"
#include "partition/partition_options.h"
#include "window/plan_choice_argument.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>

namespace remat::ui {

bool parseGuiOptions(const QCoreApplication& app, GuiOptions& options, int& exitCode)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main",
        "Remat Explorer: open a PyTorch joint graph, tag nodes, watch the partition change.\n"
        "Headless commands (partition, info, bench) are listed by `remat-explorer help`."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("graph"),
        QCoreApplication::translate(
            "main", "Joint graph to open (JSON or printed); the bundled sample if none."),
        QStringLiteral("[graph]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Render the window to <file> (PNG) once laid out, then exit."),
        QStringLiteral("file"));
    const QCommandLineOption zoom(QStringLiteral("zoom"),
        QCoreApplication::translate("main", "With --screenshot: 'fit' or a scale factor such as 0.5."),
        QStringLiteral("fit|factor"));
    const QCommandLineOption select(QStringLiteral("select"),
        QCoreApplication::translate("main", "Select <node> and centre on it (expands its groups)."),
        QStringLiteral("node"));
    const QCommandLineOption tag(QStringLiteral("tag"),
        QCoreApplication::translate("main",
            "Tag a node before the screenshot, e.g. mm_3=MUST_RECOMPUTE "
            "(repeatable; not saved). In a window: tag it as you would "
            "(undoable, saved)."),
        QStringLiteral("node=POLICY"));
    const QCommandLineOption tagDelay(QStringLiteral("tag-delay"),
        QCoreApplication::translate("main", "In a window: apply the --tag tags one by one, <ms> apart."),
        QStringLiteral("ms"));
    const QCommandLineOption restore(QStringLiteral("restore"),
        QCoreApplication::translate("main",
            "When the graph has work from a session that ended unexpectedly: ask (default), "
            "yes (restore it) or no (discard it), without a dialog."),
        QStringLiteral("ask|yes|no"));
    const QCommandLineOption offload(
        QStringList {QStringLiteral("activation-offloading"), QStringLiteral("offload")},
        QCoreApplication::translate("main",
            "Run torch 2.x's activation-offloading pass: saved values tagged MUST_/PREFER_CPU_OFFLOAD go to "
            "the host."));
    const QCommandLineOption inductorPasses(QStringLiteral("inductor-passes"),
        QCoreApplication::translate("main",
            "Replay Inductor's joint-graph passes before partitioning (torch-2.14 rules): on, off, or auto "
            "(when the file's decision came after them)."),
        QStringLiteral("auto|on|off"));
    const QCommandLineOption expand(QStringLiteral("expand"),
        QCoreApplication::translate("main", "Expand 'all' groups, or the group with this label."),
        QStringLiteral("all|label"));
    const QCommandLineOption size(QStringLiteral("size"),
        QCoreApplication::translate("main", "Window size for --screenshot."), QStringLiteral("WxH"));
    const QCommandLineOption measure(QStringLiteral("measure"),
        QCoreApplication::translate("main",
            "Print open, first-picture and re-partition timings, then exit "
            "(with --expand: the expanded picture's too)."));
    const QCommandLineOption repeats(QStringLiteral("repeats"),
        QCoreApplication::translate("main", "With --measure: how many tags to time (default 10)."),
        QStringLiteral("n"));
    const QCommandLineOption partitioner(QStringLiteral("partitioner"),
        QCoreApplication::translate("main", "Partition with min-cut, default or budget (the memory budget)."),
        QStringLiteral("min-cut|default|budget"));
    const QCommandLineOption rules(QStringLiteral("rules"),
        QCoreApplication::translate("main", "Whose rules: torch-1.13, torch-2.14 or newest."),
        QStringLiteral("torch-1.13|torch-2.14|newest"));
    const QCommandLineOption budget(QStringLiteral("budget"),
        QCoreApplication::translate(
            "main", "Activation memory budget in [0, 1] (implies --partitioner budget)."),
        QStringLiteral("b"));
    const QCommandLineOption solver(QStringLiteral("solver"),
        QCoreApplication::translate("main", "The budget's knapsack solver (implies --partitioner budget)."),
        QStringLiteral("dp|greedy|ilp|dp_knapsack_sliding_hirschberg"));
    const QCommandLineOption estimator(QStringLiteral("estimator"),
        QCoreApplication::translate("main", "The budget's runtime estimator (implies --partitioner budget)."),
        QStringLiteral("flops|testing|roofline"));
    const QCommandLineOption device(QStringLiteral("device"),
        QCoreApplication::translate("main", "Device profile of the roofline estimator (implies it)."),
        QStringLiteral("name"));
    const QCommandLineOption exportPlan(QStringLiteral("export-plan"),
        QCoreApplication::translate("main", "Write the plan (JSON) once partitioned, then exit."),
        QStringLiteral("file"));
    const QCommandLineOption exportScript(QStringLiteral("export-script"),
        QCoreApplication::translate("main",
            "Write the plan and a Python script that runs it (the plan "
            "goes beside it unless --export-plan), then exit."),
        QStringLiteral("file.py"));
    const QCommandLineOption exportImage(QStringLiteral("export-image"),
        QCoreApplication::translate("main", "Write the canvas as PNG or SVG (by suffix), then exit."),
        QStringLiteral("file"));
    const QCommandLineOption plan(QStringLiteral("plan"),
        QCoreApplication::translate("main", "Show this plan file's decision instead of the partitioner's."),
        QStringLiteral("PLAN.json"));
    const QCommandLineOption dock(QStringLiteral("dock"),
        QCoreApplication::translate(
            "main", "Raise a dock for the screenshot: trade-off, timeline, compare, inspector, devices."),
        QStringLiteral("NAME"));
    const QCommandLineOption compare(QStringLiteral("compare"),
        QCoreApplication::translate(
            "main", "Compare the plan with B: pytorch, budget=B, other-rules, without-tags or PLAN.json."),
        QStringLiteral("B"));
    const QCommandLineOption step(QStringLiteral("step"),
        QCoreApplication::translate("main", "Click this memory-timeline step (a number, or peak)."),
        QStringLiteral("STEP"));
    const QCommandLineOption teach(QStringLiteral("teach"),
        QCoreApplication::translate(
            "main", "Screenshot the teaching view at this step (1-5), on the selection or the graph."),
        QStringLiteral("STEP"));
    const QCommandLineOption traceGraph(QStringLiteral("graph"),
        QCoreApplication::translate("main",
            "Of a TORCH_TRACE log or TORCH_LOGS capture that compiled several graphs, open this one "
            "(tlparse's compile id, "
            "e.g. 0/0 or 1/0); without it the window asks, and a headless run fails naming them."),
        QStringLiteral("ID"));
    const QCommandLineOption tools(QStringLiteral("tools"),
        QCoreApplication::translate("main", "With --export-script: the folder holding apply_plan.py."),
        QStringLiteral("dir"));
    parser.addOptions({screenshot, zoom, select, tag, tagDelay, restore, offload, inductorPasses, expand,
        size, measure, repeats, partitioner, rules, budget, solver, estimator, device, exportPlan,
        exportScript, exportImage, plan, dock, compare, step, teach, traceGraph, tools});
    if (!parser.parse(app.arguments())) {
        std::fprintf(stderr, "%s\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
        exitCode = 2;
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        exitCode = 0;
        return false;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("%s %s\n", qPrintable(QCoreApplication::applicationName()),
            qPrintable(QCoreApplication::applicationVersion()));
        exitCode = 0;
        return false;
    }
    options.graph = parser.positionalArguments().value(0);
    options.traceGraph = parser.value(traceGraph);
    options.screenshot = parser.value(screenshot);
    options.zoom = parser.value(zoom);
    options.select = parser.value(select);
    options.tags = parser.values(tag);
    options.activationOffloading = parser.isSet(offload);
    options.expand = parser.value(expand);
    options.measure = parser.isSet(measure);
    if (parser.isSet(repeats))
        options.measureRepeats = std::max(1, parser.value(repeats).toInt());
    auto invalid = [&](const QString& message) {
        std::fprintf(stderr, "remat-explorer: %s\n", qPrintable(message));
        exitCode = 2;
        return false;
    };
    if (parser.isSet(tagDelay)) {
        bool ok = false;
        options.tagDelayMs = parser.value(tagDelay).toInt(&ok);
        if (!ok || options.tagDelayMs < 0)
            return invalid(QStringLiteral("--tag-delay must be a number of milliseconds, not \"%1\"")
                               .arg(parser.value(tagDelay)));
    }
    if (parser.isSet(restore)) {
        options.restore = parser.value(restore);
        if (options.restore != QLatin1String("ask") && options.restore != QLatin1String("yes")
            && options.restore != QLatin1String("no"))
            return invalid(
                QStringLiteral("--restore must be ask, yes or no, not \"%1\"").arg(options.restore));
    }
    options.partitioner = parser.value(partitioner);
    if (!options.partitioner.isEmpty() && options.partitioner != QLatin1String("budget")
        && !parsePartitioner(options.partitioner.toStdString()))
        return invalid(QStringLiteral("--partitioner must be min-cut, default or budget, not \"%1\"")
                           .arg(options.partitioner));
    options.rules = parser.value(rules);
    options.inductorPasses = parser.value(inductorPasses);
    if (!options.inductorPasses.isEmpty() && !parseJointPassReplay(options.inductorPasses.toStdString()))
        return invalid(QStringLiteral("--inductor-passes must be auto, on or off, not \"%1\"")
                           .arg(options.inductorPasses));
    if (!options.rules.isEmpty() && !parseRuleSet(options.rules.toStdString()))
        return invalid(QStringLiteral("--rules must be %1, not \"%2\"")
                           .arg(QString::fromStdString(std::string(ruleSetChoices())), options.rules));
    if (parser.isSet(budget)) {
        bool ok = false;
        const double b = parser.value(budget).toDouble(&ok);
        if (!ok || b < 0 || b > 1)
            return invalid(
                QStringLiteral("--budget must be a number in [0, 1], not \"%1\"").arg(parser.value(budget)));
        options.budget = b;
    }
    options.solver = parser.value(solver);
    if (!options.solver.isEmpty() && !parseSolver(options.solver.toStdString()))
        return invalid(QStringLiteral("--solver must be %1, not \"%2\"")
                           .arg(toQString(solverChoices()), options.solver));
    options.estimator = parser.value(estimator);
    if (const auto reason = unreproducibleEstimatorReason(options.estimator.toStdString()))
        return invalid(QStringLiteral("--estimator %1: %2").arg(options.estimator, toQString(*reason)));
    if (!options.estimator.isEmpty() && !parseEstimator(options.estimator.toStdString()))
        return invalid(QStringLiteral("--estimator must be flops, testing or roofline, not \"%1\"")
                           .arg(options.estimator));
    options.device = parser.value(device);
    const bool budgetOptions = options.budget || !options.solver.isEmpty() || !options.estimator.isEmpty()
        || !options.device.isEmpty();
    if (budgetOptions && !options.partitioner.isEmpty() && options.partitioner != QLatin1String("budget"))
        return invalid(QStringLiteral(
            "--budget, --solver, --estimator and --device only apply to --partitioner budget"));
    if (!options.device.isEmpty() && !options.estimator.isEmpty()
        && options.estimator != QLatin1String("roofline"))
        return invalid(QStringLiteral("--device only applies to the roofline estimator"));
    options.exportPlan = parser.value(exportPlan);
    options.exportScript = parser.value(exportScript);
    options.exportImage = parser.value(exportImage);
    options.plan = parser.value(plan);
    options.dock = parser.value(dock);
    options.compare = parser.value(compare);
    if (QString error; parser.isSet(compare) && !planChoiceFromArgument(options.compare, error))
        return invalid(error);
    options.step = parser.value(step);
    if (parser.isSet(teach)) {
        const int value = parser.value(teach).toInt();
        if (value < 1 || value > 5)
            return invalid(QStringLiteral("--teach must be a step from 1 to 5"));
        options.teach = value;
    }
    options.tools = parser.value(tools);
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        if (parts.size() != 2 || parts[0].toInt() <= 0 || parts[1].toInt() <= 0)
            return invalid(
                QStringLiteral("--size must be WIDTHxHEIGHT in pixels, such as 1600x1000, not \"%1\"")
                    .arg(parser.value(size)));
        options.windowSize = QSize(parts[0].toInt(), parts[1].toInt());
    }
    if (!options.zoom.isEmpty() && options.zoom != QLatin1String("fit")) {
        bool ok = false;
        const double factor = options.zoom.toDouble(&ok);
        if (!ok || !(factor > 0))
            return invalid(QStringLiteral("--zoom must be fit or a positive factor such as 0.5, not \"%1\"")
                               .arg(options.zoom));
    }
    return true;
}

bool GuiOptions::headlessArguments(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        for (const char* flag :
            {"--screenshot", "--measure", "--export-plan", "--export-script", "--export-image"}) {
            if (arg == flag || arg.startsWith(QByteArray(flag) + '='))
                return true;
        }
    }
    return false;
}

} // namespace remat::ui
