// SPDX-License-Identifier: MIT
// The offer to restore an interrupted session's work: what it counts, what it says, the dialog's
// buttons (Escape restores: nothing is lost), and the answers of --restore.
#include "gui_test_support.h"
#include "window/recovery_offer.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTest>
#include <QTimer>

using namespace remat;
using namespace remat::ui;

namespace {

InterruptedSession session()
{
    InterruptedSession s;
    s.graphName = QStringLiteral("mlp.json");
    s.projectPath = QStringLiteral("/tmp/mlp.json.remat");
    s.pid = 4242;
    s.started = QDateTime(QDate(2025, 3, 14), QTime(9, 26, 53));
    s.autosaved = QDateTime(QDate(2025, 3, 14), QTime(10, 2, 7));
    ProjectData before;
    before.tags = {{"a", CheckpointPolicy::MustSave}, {"b", CheckpointPolicy::MustRecompute},
        {"c", CheckpointPolicy::PreferSave}};
    ProjectData after;
    after.tags = {{"a", CheckpointPolicy::MustSave}, {"b", CheckpointPolicy::PreferSave},
        {"d", CheckpointPolicy::MustRecompute}, {"e", CheckpointPolicy::None}};
    s.before = before;
    s.autosavedData = after;
    return s;
}

/// Answers the next modal message box by clicking the button with this text.
void answerWith(const QString& text)
{
    QTimer::singleShot(0, [text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        for (QAbstractButton* button : box->buttons()) {
            if (button->text().remove(QLatin1Char('&')) == text) {
                button->click();
                return;
            }
        }
        QFAIL(qPrintable(QStringLiteral("no button ") + text));
    });
}

} // namespace

class TestRecoveryOffer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void countsWhatChangedSinceTheSessionBegan()
    {
        const RecoveredWork work = recoveredWork(session());
        QCOMPARE(work.tags, 3); // a, b, d; e only clears the graph file's own tag
        QCOMPARE(work.tagsBefore, 3);
        QCOMPARE(work.added, 2);
        QCOMPARE(work.changed, 1);
        QCOMPARE(work.removed, 1);
        QVERIFY(!work.settingsChanged);
        QCOMPARE(work.details,
            QStringList(
                {QStringLiteral("~ b MUST_RECOMPUTE -> PREFER_SAVE"), QStringLiteral("+ d MUST_RECOMPUTE"),
                    QStringLiteral("+ e NONE"), QStringLiteral("- c (was PREFER_SAVE)")}));

        InterruptedSession settings = session();
        settings.autosavedData->rules = RuleSet::Torch214;
        QVERIFY(recoveredWork(settings).settingsChanged);
        QVERIFY(
            recoveryExplanation(settings).contains(QStringLiteral("and changed the partitioner settings")));
    }

    void saysWhatRestoreKeepsAndDiscardDrops()
    {
        QCOMPARE(recoveryHeadline(session()),
            QStringLiteral("Remat Explorer ended unexpectedly while mlp.json was open (the session started "
                           "2025-03-14 09:26:53, process 4242)."));
        QCOMPARE(recoveryExplanation(session()),
            QStringLiteral("Autosave kept that session's work at 2025-03-14 10:02:07: 3 tags (2 added, 1 "
                           "changed, 1 removed "
                           "since it began).\n\nRestore keeps it. Discard goes back to the 3 tags you had "
                           "when that session began."));
        InterruptedSession fresh = session();
        fresh.before.reset();
        QCOMPARE(recoveryExplanation(fresh),
            QStringLiteral("Autosave kept that session's work at 2025-03-14 10:02:07: 3 tags (4 added since "
                           "it began).\n\n"
                           "Restore keeps it. Discard goes back to no tags, as when that session began."));
        InterruptedSession one = fresh;
        one.before = ProjectData {};
        one.before->tags["a"] = CheckpointPolicy::MustSave;
        QVERIFY(recoveryExplanation(one).endsWith(
            QStringLiteral("Discard goes back to the 1 tag you had when that session began.")));
    }

    void theDialogRestoresUnlessTold()
    {
        answerWith(QStringLiteral("Discard"));
        QCOMPARE(askToRestore(nullptr, session()), RecoveryChoice::Discard);
        answerWith(QStringLiteral("Restore"));
        QCOMPARE(askToRestore(nullptr, session()), RecoveryChoice::Restore);
        QTimer::singleShot(0, [] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box);
            QVERIFY(box->text().contains(QStringLiteral("ended unexpectedly while mlp.json")));
            QVERIFY(box->detailedText().contains(QStringLiteral("+ d MUST_RECOMPUTE")));
            QCOMPARE(box->defaultButton()->text().remove(QLatin1Char('&')), QStringLiteral("Restore"));
            QTest::keyClick(box, Qt::Key_Escape);
        });
        QCOMPARE(askToRestore(nullptr, session()), RecoveryChoice::Restore); // closing it loses nothing
        // Unanswered (the app is quitting: every event loop ends): the question waits for next time.
        QTimer::singleShot(0, [] { QApplication::activeModalWidget()->hide(); });
        QCOMPARE(askToRestore(nullptr, session()), RecoveryChoice::Later);
    }

    void theCommandLineAnswersWithoutADialog()
    {
        QCOMPARE(recoveryHandler(nullptr, QStringLiteral("yes"), true)(session()), RecoveryChoice::Restore);
        QCOMPARE(recoveryHandler(nullptr, QStringLiteral("no"), true)(session()), RecoveryChoice::Discard);
        QCOMPARE(recoveryHandler(nullptr, QStringLiteral("ask"), false)(session()), RecoveryChoice::Later);
    }
};

QTEST_MAIN(TestRecoveryOffer)
#include "tst_recoveryoffer.moc"
