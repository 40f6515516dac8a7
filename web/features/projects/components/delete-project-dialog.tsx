import { useState } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogFooter,
} from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { deleteConsequences, deleteErrorText } from '../utils/delete-summary.ts';

export interface DeleteProjectDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  projectName: string;
  /** Tasks of the project on this device (undefined while counting). */
  taskCount: number | undefined;
  /** Deletes the project; a thrown error is shown as 'Error: {message}' and the dialog stays open. */
  onConfirm: () => Promise<void>;
}

/** 'Delete Project' (spec 01 section 2): what goes with the project, and that it cannot be undone. */
export function DeleteProjectDialog({
  open,
  onOpenChange,
  projectName,
  taskCount,
  onConfirm,
}: DeleteProjectDialogProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  const confirm = async () => {
    setFailure(null);
    setDeleting(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch (err) {
      setFailure(deleteErrorText(err));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent
        title="Delete Project"
        description={
          <>
            <p>
              Are you sure you want to delete <strong className="text-slate-900">{projectName}</strong>? This
              will also permanently delete:
            </p>
            <ul className="mt-2 list-disc pl-5">
              {deleteConsequences(taskCount ?? 0).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p className="mt-2 font-medium text-red-700">This action cannot be undone.</p>
          </>
        }
      >
        {failure && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {failure}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={() => void confirm()} disabled={deleting}>
            Delete Project
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
