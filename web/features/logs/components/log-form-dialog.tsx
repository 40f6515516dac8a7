import { useEffect, useId, useMemo, useState } from 'react';
import { ImagePlus, Plus, X } from 'lucide-react';
import { LOG_STATUSES, LOG_TYPES } from '#shared/enums.ts';
import type { ProjectRow } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { FieldError, Label } from '#web/components/ui/label.tsx';
import { fieldProps, FormField } from '#web/components/ui/form-field.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { PhotoImage } from '#web/features/photos/photo-image.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import { LOG_STATUS_LABELS, LOG_TYPE_LABELS } from '../utils/labels.ts';
import {
  addTag,
  LOG_PHOTOS_PER_SAVE,
  logFormSchema,
  pickLogPhotos,
  type LogFields,
  type LogFormValues,
} from '../utils/log-form.ts';

export interface LogSubmission {
  /** The whole form (a create sends it). */
  data: LogFields;
  /** Only the fields the user changed (an edit sends that); new photos are added to `images` by the caller. */
  changed: Partial<LogFields>;
  /** Photos picked in this save, at most 5, to go through the photo pipeline. */
  files: File[];
  /** Tags for the photos of this save (trimmed, no duplicates). */
  tags: string[];
  /** Called as each photo is done, so the dialog can say how far the save is. */
  onProgress: (done: number, total: number) => void;
}

export interface LogFormDialogProps {
  mode: 'create' | 'edit';
  initial: LogFormValues;
  projects: readonly ProjectRow[];
  onOpenChange: (open: boolean) => void;
  /** Saves the log; a thrown error keeps the dialog open with what was typed (the caller shows the toast). */
  onSubmit: (submission: LogSubmission) => Promise<void>;
}

/** Previews of picked files, revoked when the files change or the dialog closes. */
function useObjectUrls(files: readonly File[]): string[] {
  const urls = useMemo(() => files.map((f) => URL.createObjectURL(f)), [files]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  return urls;
}

/** Create Log and Edit Log (spec 02 sections 2 and 5). Mount it when it opens so it loads afresh. */
export function LogFormDialog({ mode, initial, projects, onOpenChange, onSubmit }: LogFormDialogProps) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const form = usePatchForm(logFormSchema, initial);
  const { errors, isSubmitting: saving } = form.formState;
  const values = form.watch();
  const [files, setFiles] = useState<File[]>([]);
  const [photoProblems, setPhotoProblems] = useState<string[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [tagInput, setTagInput] = useState('');
  const previews = useObjectUrls(files);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);

  const set = (name: 'projectId' | 'type' | 'status', value: string) =>
    form.setValue(name, value as never, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  const removeImage = (src: string) =>
    form.setValue(
      'images',
      values.images.filter((i) => i !== src),
      { shouldDirty: true },
    );
  const commitTag = () => {
    setTags((t) => addTag(t, tagInput));
    setTagInput('');
  };

  const submit = form.submitPatch(async (data, changed) => {
    const onProgress = (done: number, total: number) => setProgress({ done, total });
    await onSubmit({ data, changed, files, tags, onProgress }).then(
      () => onOpenChange(false),
      () => setProgress(null),
    );
  });

  const knownProject = !values.projectId || projects.some((p) => p.id === values.projectId);
  const msg = {
    projectId: errors.projectId?.message,
    title: errors.title?.message,
    content: errors.content?.message,
    type: errors.type?.message,
    status: errors.status?.message,
    images: errors.images?.message,
  };
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={mode === 'create' ? 'Create Project Log' : 'Edit Project Log'}
        description={mode === 'create' ? 'Write a log entry for a project' : 'Change this log entry'}
        hideDescription
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4">
          <FormField id={id('project')} label="Project" required error={msg.projectId}>
            <Select value={values.projectId} onValueChange={(v) => set('projectId', v)}>
              <SelectTrigger
                {...fieldProps(id('project'), msg.projectId)}
                aria-required="true"
                className="min-w-0 text-left [&>span]:truncate"
              >
                <SelectValue placeholder="Select a project" />
              </SelectTrigger>
              <SelectContent>
                {!knownProject && <SelectItem value={values.projectId}>Unknown Project</SelectItem>}
                {projects.map((p) => (
                  <SelectItem key={p.id} value={p.id}>
                    {p.name ?? 'Untitled project'}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
          <FormField id={id('title')} label="Title" required error={msg.title}>
            <Input
              {...fieldProps(id('title'), msg.title)}
              {...form.register('title')}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <FormField id={id('content')} label="Content" error={msg.content}>
            <Textarea {...fieldProps(id('content'), msg.content)} {...form.register('content')} rows={4} />
          </FormField>
          <div className="grid grid-cols-2 gap-4">
            <FormField id={id('type')} label="Type" error={msg.type}>
              <Select value={values.type} onValueChange={(v) => set('type', v)}>
                <SelectTrigger {...fieldProps(id('type'), msg.type)}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {LOG_TYPES.map((t) => (
                    <SelectItem key={t} value={t}>
                      {LOG_TYPE_LABELS[t]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
            <FormField id={id('status')} label="Status" error={msg.status}>
              <Select value={values.status} onValueChange={(v) => set('status', v)}>
                <SelectTrigger {...fieldProps(id('status'), msg.status)}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {LOG_STATUSES.map((s) => (
                    <SelectItem key={s} value={s}>
                      {LOG_STATUS_LABELS[s]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
          </div>

          <div className="grid gap-1.5">
            <Label htmlFor={id('tag')}>Tags</Label>
            <div className="flex gap-2">
              <Input
                id={id('tag')}
                value={tagInput}
                placeholder="Add a tag"
                aria-describedby={id('tag-hint')}
                onChange={(e) => setTagInput(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter') return;
                  e.preventDefault();
                  commitTag();
                }}
              />
              {/* shrink-0: on a phone the field would squeeze the button, and its icon down to a sliver. */}
              <Button
                type="button"
                variant="outline"
                className="shrink-0"
                onClick={commitTag}
                aria-label="Add tag"
              >
                <Plus className="h-4 w-4" aria-hidden="true" />
                Add
              </Button>
            </div>
            <p id={id('tag-hint')} className="text-xs text-slate-500">
              Tags are given to the photos added in this save.
            </p>
            {tags.length > 0 && (
              <ul aria-label="Chosen tags" className="flex flex-wrap gap-2">
                {tags.map((t) => (
                  <li
                    key={t}
                    className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-3 text-sm text-slate-800"
                  >
                    {t}
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="h-11 w-11 md:h-8 md:w-8"
                      aria-label={`Remove tag ${t}`}
                      onClick={() => setTags((all) => all.filter((x) => x !== t))}
                    >
                      <X className="h-3 w-3" aria-hidden="true" />
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </div>

          <div className="grid gap-2">
            <span className="text-sm font-medium text-slate-800" id={id('photos-label')}>
              Photos
            </span>
            {values.images.length > 0 && (
              <ul aria-label="Current photos" className="flex flex-wrap gap-2">
                {values.images.map((src, i) => (
                  <li
                    key={src}
                    className="relative h-20 w-20 overflow-hidden rounded-md border border-slate-200"
                  >
                    <PhotoImage
                      src={src}
                      alt={`Current photo ${i + 1}`}
                      variant="thumb"
                      className="h-full w-full object-cover"
                    />
                    <button
                      type="button"
                      aria-label={`Remove current photo ${i + 1}`}
                      onClick={() => removeImage(src)}
                      className="absolute top-0 right-0 flex h-11 w-11 items-start justify-end p-1"
                    >
                      <span className="rounded-full bg-black/70 p-1 text-white">
                        <X className="h-3 w-3" aria-hidden="true" />
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {files.length > 0 && (
              <ul aria-label="New photos" className="flex flex-wrap gap-2">
                {files.map((f, i) => (
                  <li
                    key={`${f.name}-${i}`}
                    className="relative h-20 w-20 overflow-hidden rounded-md border border-slate-200"
                  >
                    <img
                      src={previews[i]}
                      alt={`New photo ${f.name}`}
                      className="h-full w-full object-cover"
                    />
                    <button
                      type="button"
                      aria-label={`Remove new photo ${f.name}`}
                      onClick={() => setFiles((all) => all.filter((_, j) => j !== i))}
                      className="absolute top-0 right-0 flex h-11 w-11 items-start justify-end p-1"
                    >
                      <span className="rounded-full bg-black/70 p-1 text-white">
                        <X className="h-3 w-3" aria-hidden="true" />
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <label
              htmlFor={id('files')}
              className="flex h-11 cursor-pointer items-center justify-center gap-2 rounded-md border border-dashed border-slate-300 px-4 text-sm text-slate-700 hover:bg-slate-50 focus-within:outline-2 focus-within:outline-teal-600"
            >
              <ImagePlus className="h-4 w-4" aria-hidden="true" />
              {mode === 'create' ? 'Add photos' : 'Add more photos'}
              <input
                id={id('files')}
                type="file"
                accept="image/*"
                multiple
                className="sr-only"
                aria-describedby={id('files-hint')}
                disabled={files.length >= LOG_PHOTOS_PER_SAVE}
                onChange={(e) => {
                  const picked = Array.from(e.target.files ?? []);
                  e.target.value = '';
                  const result = pickLogPhotos(files, picked);
                  setFiles(result.files);
                  setPhotoProblems(result.problems);
                }}
              />
            </label>
            <p id={id('files-hint')} className="text-xs text-slate-500">
              Up to {LOG_PHOTOS_PER_SAVE} photos per save, max 10MB each
            </p>
            {photoProblems.length > 0 && (
              <ul role="alert" className="text-sm text-red-700">
                {photoProblems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
            <FieldError>{msg.images}</FieldError>
          </div>

          {saving && files.length > 0 && (
            <p role="status" className="text-sm text-slate-700">
              Adding photos... {progress?.done ?? 0} of {files.length}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving...' : mode === 'create' ? 'Create Log' : 'Update Log'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
