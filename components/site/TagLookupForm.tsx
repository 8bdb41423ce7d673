import { TAG_LOOKUP_FORM_ATTRIBUTES, tagLookupFieldsHtml } from '@/lib/web/server/tag-lookup-html';

/**
 * Looks a tag up: a plain GET form to /profile, which redirects to /@tag. Works without
 * JavaScript and ships none. Its markup is lib/web/server/tag-lookup-html.ts's, which the /@tag
 * handler's not-found page sends too.
 */
export function TagLookupForm({ defaultValue = '', error }: { defaultValue?: string; error?: string }) {
  return (
    <form
      {...TAG_LOOKUP_FORM_ATTRIBUTES}
      dangerouslySetInnerHTML={{ __html: tagLookupFieldsHtml({ defaultValue, error }).text }}
    />
  );
}
