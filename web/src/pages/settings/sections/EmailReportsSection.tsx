import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import type { SiteSectionProps } from '../siteSection';
import { MailNotSetUp, RecipientList, useEmailSettings } from './EmailRecipients';

/** Weekly and monthly email reports (docs/settings.md, Email reports): who gets them. */
export function EmailReportsSection({ site }: SiteSectionProps) {
  const settings = useEmailSettings(site.domain);
  return (
    <>
      {settings.data?.mail_configured === false && <MailNotSetUp what="report" />}
      <ErrorNote error={settings.error} />
      <Section
        title="Weekly report"
        description={`Every Monday at 06:00 (${site.timezone}): the Monday–Sunday before — visitors, pageviews, bounce rate and visit duration against the week before, and the top five sources and pages. Each mail has its own unsubscribe link.`}
      >
        <RecipientList domain={site.domain} topic="weekly" settings={settings} empty="Nobody gets the weekly report." />
      </Section>
      <Section
        title="Monthly report"
        description={`On the 1st of every month at 06:00 (${site.timezone}): the same figures for the month before, against the month before that.`}
      >
        <RecipientList domain={site.domain} topic="monthly" settings={settings} empty="Nobody gets the monthly report." />
      </Section>
    </>
  );
}
