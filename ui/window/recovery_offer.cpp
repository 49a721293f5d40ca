// SPDX-License-Identifier: MIT
#include "window/recovery_offer.h"

#include "model/policy_names.h"

#include <QMessageBox>
#include <QPushButton>

#include <cstdio>

namespace remat::ui {
namespace {

QString when(const QDateTime& time)
{
    return time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString tagsText(int count)
{
    return count == 1 ? QObject::tr("1 tag") : QObject::tr("%1 tags").arg(count);
}

int countTags(const std::optional<ProjectData>& project)
{
    if (!project)
        return 0;
    // A "NONE" entry clears a tag the graph file carries: an edit, not a tag.
    return static_cast<int>(std::count_if(project->tags.begin(), project->tags.end(),
        [](const auto& entry) { return entry.second != CheckpointPolicy::None; }));
}

ProjectData withoutTags(std::optional<ProjectData> project)
{
    ProjectData data = project.value_or(ProjectData {});
    data.tags.clear();
    return data;
}

} // namespace

RecoveredWork recoveredWork(const InterruptedSession& session)
{
    RecoveredWork work;
    work.tags = countTags(session.autosavedData);
    work.tagsBefore = countTags(session.before);
    const std::map<std::string, CheckpointPolicy> none;
    const auto& before = session.before ? session.before->tags : none;
    const auto& after = session.autosavedData ? session.autosavedData->tags : none;
    for (const auto& [name, policy] : after) {
        const auto it = before.find(name);
        const QString node = QString::fromStdString(name);
        if (it == before.end()) {
            ++work.added;
            work.details << QStringLiteral("+ %1 %2").arg(node, QLatin1String(policyName(policy)));
        } else if (it->second != policy) {
            ++work.changed;
            work.details << QStringLiteral("~ %1 %2 -> %3")
                                .arg(node, QLatin1String(policyName(it->second)),
                                    QLatin1String(policyName(policy)));
        }
    }
    for (const auto& [name, policy] : before) {
        if (!after.contains(name)) {
            ++work.removed;
            work.details << QStringLiteral("- %1 (was %2)")
                                .arg(QString::fromStdString(name), QLatin1String(policyName(policy)));
        }
    }
    work.settingsChanged = withoutTags(session.autosavedData) != withoutTags(session.before);
    if (work.settingsChanged)
        work.details << QObject::tr("partitioner settings changed");
    return work;
}

QString recoveryHeadline(const InterruptedSession& session)
{
    return QObject::tr(
        "Remat Explorer ended unexpectedly while %1 was open (the session started %2, process %3).")
        .arg(session.graphName, when(session.started))
        .arg(session.pid);
}

QString recoveryExplanation(const InterruptedSession& session)
{
    const RecoveredWork work = recoveredWork(session);
    QStringList changes;
    if (work.added > 0)
        changes << QObject::tr("%1 added").arg(work.added);
    if (work.changed > 0)
        changes << QObject::tr("%1 changed").arg(work.changed);
    if (work.removed > 0)
        changes << QObject::tr("%1 removed").arg(work.removed);
    QString kept = session.autosavedData ? QObject::tr("Autosave kept that session's work at %1: %2")
                                               .arg(when(session.autosaved), tagsText(work.tags))
                                         : QObject::tr("That session removed its project file");
    if (!changes.isEmpty())
        kept += QObject::tr(" (%1 since it began)").arg(changes.join(QLatin1String(", ")));
    if (work.settingsChanged)
        kept += QObject::tr(", and changed the partitioner settings");
    const QString discard = work.tagsBefore > 0
        ? QObject::tr("Discard goes back to the %1 you had when that session began.")
              .arg(tagsText(work.tagsBefore))
        : QObject::tr("Discard goes back to no tags, as when that session began.");
    return kept + QStringLiteral(".\n\n") + QObject::tr("Restore keeps it. ") + discard;
}

RecoveryChoice askToRestore(QWidget* parent, const InterruptedSession& session)
{
    QMessageBox box(parent);
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(QObject::tr("Restore Your Work?"));
    box.setText(recoveryHeadline(session));
    box.setInformativeText(recoveryExplanation(session));
    box.setDetailedText(recoveredWork(session).details.join(QLatin1Char('\n')));
    QPushButton* restore = box.addButton(QObject::tr("&Restore"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(QObject::tr("&Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(restore);
    box.setEscapeButton(restore); // closing the question loses nothing
    box.exec();
    if (box.clickedButton() == discard)
        return RecoveryChoice::Discard;
    // No answer at all (the app was asked to quit meanwhile): ask again next time.
    return box.clickedButton() == restore ? RecoveryChoice::Restore : RecoveryChoice::Later;
}

GraphDocument::RecoveryHandler recoveryHandler(QWidget* window, const QString& answer, bool interactive)
{
    return [window, answer, interactive](const InterruptedSession& session) {
        if (answer == QLatin1String("ask") && interactive)
            return askToRestore(window, session);
        const QString offer = recoveryHeadline(session) + QLatin1Char('\n') + recoveryExplanation(session);
        if (answer == QLatin1String("ask")) {
            std::fprintf(stderr,
                "remat-explorer: %s\n(the autosaved work is shown; --restore yes|no keeps or discards it)\n",
                qPrintable(offer));
            return RecoveryChoice::Later;
        }
        const bool restore = answer == QLatin1String("yes");
        const RecoveredWork work = recoveredWork(session);
        std::printf("%s\n%s\n", qPrintable(offer),
            qPrintable(restore ? QObject::tr("restored: %1").arg(tagsText(work.tags))
                               : QObject::tr("discarded: back to %1").arg(tagsText(work.tagsBefore))));
        std::fflush(stdout);
        return restore ? RecoveryChoice::Restore : RecoveryChoice::Discard;
    };
}

} // namespace remat::ui
