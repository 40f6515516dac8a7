import { Upload } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';

/**
 * The photo picker: a drop area (desktop) with a button that opens the file chooser, which on a phone
 * offers the camera too (`accept="image/*"` without `capture`, so the library stays available).
 */
export function PhotoPicker({
  multiple,
  onFiles,
  hint,
  buttonLabel,
  disabled,
}: {
  multiple: boolean;
  onFiles: (files: File[]) => void;
  hint: string;
  buttonLabel: string;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [over, setOver] = useState(false);
  const take = (list: FileList | null) => {
    if (list && list.length > 0) onFiles([...list]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) take(e.dataTransfer.files);
  };
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="photo-drop-zone"
      className={cn(
        'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm text-slate-600',
        over ? 'border-teal-600 bg-teal-50' : 'border-slate-300',
      )}
    >
      <Upload className="h-8 w-8 text-slate-400" aria-hidden="true" />
      <p>Drag and drop photos here, or</p>
      <Button type="button" variant="outline" disabled={disabled} onClick={() => input.current?.click()}>
        {buttonLabel}
      </Button>
      <label htmlFor={inputId} className="sr-only">
        {buttonLabel}
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept="image/*"
        multiple={multiple}
        className="sr-only"
        tabIndex={-1}
        onChange={(e) => {
          take(e.target.files);
          // The same file picked again must fire change again.
          e.target.value = '';
        }}
      />
      <p className="text-xs text-slate-500">{hint}</p>
    </div>
  );
}
