import { useId, useState } from 'react';
import { ChevronDown } from 'lucide-react';
import type { ProjectRow } from '#sync/db.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '#web/components/ui/collapsible.tsx';
import { cn } from '#web/lib/cn.ts';
import type { ProjectActions } from './project-actions.ts';
import { ProjectCard } from './project-card.tsx';

/** A collapsible 'Active Projects' / 'Completed Projects' section with its count badge (spec 01 section 2). */
export function ProjectSection({
  title,
  projects,
  actions,
  emptyText,
}: {
  title: string;
  projects: ProjectRow[];
  actions: ProjectActions;
  emptyText: string;
}) {
  const [open, setOpen] = useState(true);
  const headingId = useId();
  return (
    <Collapsible open={open} onOpenChange={setOpen} asChild>
      <section aria-labelledby={headingId} className="grid gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          <CollapsibleTrigger className="flex min-h-11 w-full items-center gap-2 rounded-md py-1 text-left hover:text-teal-800 focus-visible:outline-2 focus-visible:outline-teal-600">
            <ChevronDown
              className={cn('h-5 w-5 transition-transform', !open && '-rotate-90')}
              aria-hidden="true"
            />
            <span>{title}</span>
            <Badge
              variant="secondary"
              aria-label={`${projects.length} ${projects.length === 1 ? 'project' : 'projects'}`}
            >
              {projects.length}
            </Badge>
          </CollapsibleTrigger>
        </h2>
        <CollapsibleContent>
          {projects.length === 0 ? (
            <p className="text-sm text-slate-600">{emptyText}</p>
          ) : (
            <div className="grid items-start gap-4 md:grid-cols-2 xl:grid-cols-3">
              {projects.map((p) => (
                <ProjectCard key={p.id} project={p} actions={actions} />
              ))}
            </div>
          )}
        </CollapsibleContent>
      </section>
    </Collapsible>
  );
}
