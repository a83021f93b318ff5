/** The source catalogue lives in the contract (the server labels sources with it too). */
export {
  SOURCE_GROUPS,
  regulatoryGroup,
  sourceFamilyKey,
  sourceGroupTitle,
  sourceTitle,
  titleFromKey,
  type RegulatoryGroup,
} from '../../contract/source-catalogue';
