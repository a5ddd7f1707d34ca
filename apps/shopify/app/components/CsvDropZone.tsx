import { DropZone } from '@shopify/polaris';

/** A file picker for one CSV (or plain text) file, dropped or chosen, handed to `onFile`. */
export function CsvDropZone({
  label,
  choose,
  hint,
  onFile,
}: {
  label: string;
  choose: string;
  hint: string;
  onFile: (file: File) => void;
}) {
  return (
    <DropZone
      accept=".csv,text/csv,text/plain"
      type="file"
      allowMultiple={false}
      label={label}
      onDropAccepted={(files) => files[0] && onFile(files[0])}
    >
      <DropZone.FileUpload actionTitle={choose} actionHint={hint} />
    </DropZone>
  );
}
