/**
 * The communications and change-order feed (spec 01 section 2; issue 12): tabs All, Messages, Change
 * Orders, Disputes, Invoices, the two create forms, Approve/Reject on pending change orders.
 *
 * Contract (seam between the dashboard and the communications work): the dashboard's Communications tab
 * renders `<CommunicationsFeed />`; a project's view may pass `projectId` to show only that project.
 * Stub until the feed is built.
 */
export function CommunicationsFeed({ projectId }: { projectId?: string }) {
  return (
    <section aria-label="Communications" data-project-id={projectId}>
      <p className="text-sm text-slate-600">Communications are on their way.</p>
    </section>
  );
}
