import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { fieldProps, FormField } from '#web/components/ui/form-field.tsx';
import { PROJECT_REQUIRED } from '../utils/sub-task-form.ts';
import type { Choice } from './sub-task-dialog.tsx';

export const ASSIGN_TITLE = 'Assign Subcontractor to Project';

export interface AssignmentInput {
  subcontractorId: string;
  projectId: string;
  specialization: string | null;
}

export interface AssignProjectDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  subcontractors: readonly Choice[];
  projects: readonly Choice[];
  /** Pairs that already have an active assignment: `${subcontractorId}:${projectId}`. */
  assigned: ReadonlySet<string>;
  initialSubcontractorId?: string;
  /** Sends the assignment to the server; a thrown error is shown in the dialog. */
  onSubmit: (input: AssignmentInput) => Promise<void>;
}

/**
 * Puts a subcontractor on a project. The device's copy of the assignments is a read-only mirror, so this
 * write goes to the server (online only); the mirror picks the new row up on the next pull.
 */
export function AssignProjectDialog({
  open,
  onOpenChange,
  subcontractors,
  projects,
  assigned,
  initialSubcontractorId = '',
  onSubmit,
}: AssignProjectDialogProps) {
  const base = useId();
  const [subcontractorId, setSub] = useState(initialSubcontractorId);
  const [projectId, setProject] = useState('');
  const [specialization, setSpecialization] = useState('');
  const [errors, setErrors] = useState<{ sub?: string; project?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = (n: string) => `${base}-${n}`;

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const next = {
      sub: subcontractorId ? undefined : 'Subcontractor is required',
      project: projectId ? undefined : PROJECT_REQUIRED,
    };
    if (!next.project && assigned.has(`${subcontractorId}:${projectId}`))
      next.project = 'This subcontractor is already assigned to this project';
    setErrors(next);
    if (next.sub || next.project) return;
    setSaving(true);
    setFailure(null);
    try {
      await onSubmit({ subcontractorId, projectId, specialization: specialization.trim() || null });
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={ASSIGN_TITLE}
        description="The subcontractor sees this project's tasks once assigned."
      >
        <form noValidate onSubmit={(ev) => void submit(ev)} className="grid gap-4">
          {failure && (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              <p className="font-semibold">Failed to assign subcontractor</p>
              <p>{failure}</p>
            </div>
          )}
          <FormField id={id('sub')} label="Subcontractor" required error={errors.sub}>
            <Select value={subcontractorId} onValueChange={setSub}>
              <SelectTrigger {...fieldProps(id('sub'), errors.sub)} aria-required="true">
                <SelectValue placeholder="Select a subcontractor" />
              </SelectTrigger>
              <SelectContent>
                {subcontractors.map((s) => (
                  <SelectItem key={s.id} value={s.id}>
                    {s.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
          <FormField id={id('project')} label="Project" required error={errors.project}>
            <Select value={projectId} onValueChange={setProject}>
              <SelectTrigger
                {...fieldProps(id('project'), errors.project)}
                aria-required="true"
                className="min-w-0 text-left [&>span]:truncate"
              >
                <SelectValue placeholder="Select a project" />
              </SelectTrigger>
              <SelectContent>
                {projects.map((p) => (
                  <SelectItem key={p.id} value={p.id}>
                    {p.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
          <FormField id={id('spec')} label="Specialization" error={undefined}>
            <Input
              id={id('spec')}
              value={specialization}
              maxLength={200}
              placeholder="e.g. Electrical"
              onChange={(ev) => setSpecialization(ev.target.value)}
            />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              Assign
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
