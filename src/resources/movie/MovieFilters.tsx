import { NumberInput, SearchInput } from 'react-admin';
import { DayInput } from '../../components/dates';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { type MovieView, SECTION_MSG } from './names';
import { ColumnInput, statusChoices, TagInput, usePlatformChoices, yesNoChoices } from './shared';

const f = `${SECTION_MSG}.filters`;

/** The search form of a movie list (SPEC.md §3 "review search form" / "online search form"). */
export function useMovieFilters(view: MovieView, translate: (key: string) => string) {
  const platforms = usePlatformChoices();
  const common = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${f}.q`)} />,
    <FilterSelectInput
      key="status"
      source="status"
      choices={statusChoices(view)}
      alwaysOn
      label={`${f}.status`}
    />,
    <ColumnInput key="columnId" source="columnId" label={`${f}.columnId`} alwaysOn />,
    <TagInput key="tagId" source="tagId" label={`${f}.tagId`} />,
    <FilterSelectInput key="platform" source="platform" choices={platforms} label={`${f}.platform`} />,
  ];
  if (view === 'review')
    return [
      ...common,
      <DayInput key="createdFrom" source="createdFrom" label={`${f}.createdFrom`} />,
      <DayInput key="createdTo" source="createdTo" label={`${f}.createdTo`} />,
    ];
  return [
    ...common,
    <FilterSelectInput
      key="recommended"
      source="recommended"
      choices={yesNoChoices}
      label={`${f}.recommended`}
    />,
    <FilterSelectInput key="free" source="free" choices={yesNoChoices} label={`${f}.free`} />,
    <NumberInput key="viewsMin" source="viewsMin" min={0} label={`${f}.viewsMin`} />,
    <NumberInput key="viewsMax" source="viewsMax" min={0} label={`${f}.viewsMax`} />,
    <DayInput key="publishedFrom" source="publishedFrom" label={`${f}.publishedFrom`} />,
    <DayInput key="publishedTo" source="publishedTo" label={`${f}.publishedTo`} />,
  ];
}
