import { X } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import type { ProjectRow, SyncDb } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { importPhotos, PhotoImportError } from '../import-photos.ts';
import { usePhotosSavedToast } from '../photos-saved-toast.ts';
import { MAX_PHOTOS_PER_BATCH } from '../pipeline/limits.ts';
import { describeSkipped, selectPhotoFiles } from '../pipeline/select-files.ts';
import { parseTags } from '../pipeline/tags.ts';
import { PhotoPicker } from './photo-picker.tsx';

export interface UploadPhotosDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  db: SyncDb;
  projects: readonly ProjectRow[];
  /** The project chosen when the dialog opens (the gallery's project filter), if any. */
  initialProjectId?: string;
}

/** A picked file with a preview of its own (the original, shown until it is compressed and stored). */
function usePreviews(files: readonly File[]): string[] {
  const urls = useMemo(() => files.map((f) => URL.createObjectURL(f)), [files]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  return urls;
}

/**
 * Upload Photos (spec 02 sections 2 and 5): Project (required), Description, Tags (comma-separated) and up
 * to 10 photos of at most 10MB. Photos are compressed and stored on this device at once, offline too, and
 * sent when it is online.
 */
export function UploadPhotosDialog({
  open,
  onOpenChange,
  db,
  projects,
  initialProjectId,
}: UploadPhotosDialogProps) {
  const id = useId();
  const [projectId, setProjectId] = useState(initialProjectId ?? '');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [skipped, setSkipped] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const previews = usePreviews(files);
  const photosSaved = usePhotosSavedToast(db);
  const busy = progress !== null;

  const pick = (picked: File[]) => {
    const { accepted, skipped } = selectPhotoFiles([...files, ...picked], MAX_PHOTOS_PER_BATCH);
    setFiles(accepted);
    setSkipped(describeSkipped(skipped, MAX_PHOTOS_PER_BATCH));
  };

  const submit = async () => {
    if (!projectId) {
      toast({
        title: 'Error',
        description: 'Please select a project before uploading photos',
        variant: 'destructive',
      });
      return;
    }
    if (files.length === 0) {
      toast({
        title: 'Error',
        description: 'Please select at least one photo to upload',
        variant: 'destructive',
      });
      return;
    }
    setProgress({ done: 0, total: files.length });
    try {
      const rows = await importPhotos(
        db,
        files,
        { projectId, description: description.trim() || null, tags: parseTags(tags) },
        { onProgress: (done, total) => setProgress({ done, total }) },
      );
      void photosSaved(rows, { title: 'Photos uploaded successfully' });
      onOpenChange(false);
    } catch (err) {
      const stored = err instanceof PhotoImportError ? err.rows.length : 0;
      toast({
        title: 'Failed to upload photos',
        description: err instanceof Error ? err.message : 'Failed to save photos',
        variant: 'destructive',
      });
      // Keep only the files that did not make it, so a second try does not store the others twice.
      if (err instanceof PhotoImportError && stored > 0) {
        const failed = new Set(err.failures.map((f) => f.name));
        setFiles((fs) => fs.filter((f) => failed.has(f.name)));
      }
    } finally {
      setProgress(null);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent
        title="Upload Photos"
        description="Photos are kept on this device and sent when it is online."
        className="max-w-lg"
      >
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-project`}>Project *</Label>
            <Select value={projectId} onValueChange={setProjectId} disabled={busy}>
              <SelectTrigger
                id={`${id}-project`}
                aria-required="true"
                className="min-w-0 text-left [&>span]:truncate"
              >
                <SelectValue placeholder="Select a project" />
              </SelectTrigger>
              <SelectContent>
                {projects.map((p) => (
                  <SelectItem key={p.id} value={p.id}>
                    {p.name ?? 'Unknown Project'}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-description`}>Description</Label>
            <Textarea
              id={`${id}-description`}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              disabled={busy}
              maxLength={2000}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-tags`}>Tags (comma-separated)</Label>
            <Input
              id={`${id}-tags`}
              value={tags}
              onChange={(e) => setTags(e.target.value)}
              placeholder="foundation, rebar, inspection"
              disabled={busy}
            />
          </div>
          <PhotoPicker
            multiple
            onFiles={pick}
            hint="Up to 10 photos, max 10MB each"
            buttonLabel="Choose Photos"
            disabled={busy || files.length >= MAX_PHOTOS_PER_BATCH}
          />
          {skipped && (
            <p role="status" className="text-sm text-amber-800">
              {skipped}
            </p>
          )}
          {files.length > 0 && (
            <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label="Selected photos">
              {files.map((f, i) => (
                <li key={`${f.name}-${i}`} className="relative">
                  <img src={previews[i]} alt={f.name} className="aspect-square w-full rounded object-cover" />
                  {!busy && (
                    <button
                      type="button"
                      onClick={() => setFiles((fs) => fs.filter((_, j) => j !== i))}
                      className="absolute top-0 right-0 flex h-11 w-11 items-center justify-center rounded-full text-white drop-shadow"
                      aria-label={`Remove ${f.name}`}
                    >
                      <X className="h-4 w-4 rounded-full bg-slate-900/70" aria-hidden="true" />
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {progress && (
            <div className="flex flex-col gap-1" role="status">
              <Progress value={(progress.done / progress.total) * 100} aria-label="Photos processed" />
              <p className="text-sm text-slate-600">
                Processing {progress.done} of {progress.total} photos...
              </p>
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              Upload Photos
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
